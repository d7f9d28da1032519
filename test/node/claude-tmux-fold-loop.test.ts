import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ClaudeTmuxFoldLoop } from '../../src/node/index.ts';
import { readClaudeCodeJsonl } from '../../src/transcripts/index.ts';

const standIn = fileURLToPath(new URL('../fixtures/stand-in-claude/claude', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'warpfold-tmux-loop-'));
const socket = `warpfold-test-${process.pid}`;
afterAll(() => {
  try {
    execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
  } catch {
    // the server already exited with its last session
  }
  rmSync(root, { recursive: true, force: true });
});

async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('ClaudeTmuxFoldLoop with real tmux and the stand-in claude', () => {
  it('runs claude in tmux, folds from measured usage once idle, and restarts it with --resume in the same pane', async () => {
    const log = join(root, 'stand-in.log');
    const errors: unknown[] = [];
    const loop = new ClaudeTmuxFoldLoop({
      executable: standIn,
      cwd: root,
      claudeHome: join(root, 'claude-home'),
      sessionId: '5e55a1d0-0000-4000-8000-00000000abcd',
      foldAtTokens: 6_000,
      tmuxSocket: socket,
      paneEnv: { STAND_IN_LOG: log, STAND_IN_OUTPUT_LINES: '40' },
      pollMs: 100,
      settleMs: 300,
      now: () => 1_764_583_200_000,
      onError: (error) => errors.push(error),
    });
    expect(loop.attachCommand).toBe(`tmux -L '${socket}' attach -t 'warpfold-5e55a1d0'`);
    await loop.start();
    try {
      await waitFor('the CLI prompt', async () =>
        (await loop.capture()).includes('stand-in claude · session 5e55a1d0'),
      );
      let turn = 0;
      while (loop.folds.length === 0 && turn < 15) {
        turn++;
        await loop.sendPrompt(`turn ${turn}: check module ${turn}`);
        await waitFor(
          `the answer to turn ${turn}`,
          async () => loop.folds.length > 0 || (await loop.capture()).includes(`Turn ${turn} done`),
        );
        await new Promise((resolve) => setTimeout(resolve, 500)); // idle long enough for the loop to settle
      }
      const fold = await waitFor('a fold', () => loop.folds[0]);
      expect(fold).toMatchObject({
        sessionId: loop.sessionId,
        path: loop.sessionFile,
        mode: 'write',
        hardEpoch: false,
      });
      expect(fold.measuredInputTokens).toBeGreaterThanOrEqual(6_000);
      expect(fold.bytesAfter).toBeLessThan(fold.bytesBefore);
      // The same pane now runs the resumed CLI on the folded file.
      await waitFor(
        'the resumed CLI',
        async () =>
          /session 5e55a1d0\S* · \d+ messages loaded/.test(
            (await loop.capture())
              .split('\n')
              .filter((line) => line.includes('messages loaded'))
              .at(-1) ?? '',
          ) && readFileSync(log, 'utf8').trimEnd().split('\n').length === 2,
      );
      const runs = readFileSync(log, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(runs[0].args).toEqual(['--session-id', loop.sessionId]);
      expect(runs[1].args).toEqual(['--resume', loop.sessionId]);
      expect(runs[1].loadedFold).toBe(true);
      expect(runs[1].loadedMessages).toBeLessThan(fold.rawMessages);
      await loop.sendPrompt('after the fold');
      await waitFor('the answer after the fold', async () =>
        (await loop.capture()).includes('starting from a warpfold fold'),
      );
      const file = readClaudeCodeJsonl(readFileSync(loop.sessionFile, 'utf8'));
      expect(file.issues).toEqual([]);
      expect(JSON.stringify(file.messages)).toContain('after the fold');
      expect(errors).toEqual([]);
    } finally {
      await loop.stop();
    }
    expect(() =>
      execFileSync('tmux', ['-L', socket, 'has-session', '-t', loop.tmuxSession], { stdio: 'ignore' }),
    ).toThrow();
  }, 180_000);
});
