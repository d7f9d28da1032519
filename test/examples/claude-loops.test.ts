import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const standIn = fileURLToPath(new URL('../fixtures/stand-in-claude/claude', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'warpfold-claude-examples-'));
const socket = `warpfold-example-${process.pid}`;
afterAll(async () => {
  await run('tmux', ['-L', socket, 'kill-server']).catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

function runExample(example: string, args: string[], env: Record<string, string>, cwd: string) {
  return run(
    process.execPath,
    [
      `${ROOT}node_modules/tsx/dist/cli.mjs`,
      '--tsconfig',
      `${ROOT}tsconfig.test.json`,
      `${ROOT}examples/${example}`,
      ...args,
    ],
    { cwd, env: { ...process.env, ...env }, timeout: 120_000 },
  );
}
const starts = (log: string) =>
  readFileSync(log, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('examples/claude-cli-loop.ts with the stand-in claude', () => {
  it('answers every prompt, folds in place with a backup, and resumes', async () => {
    const cwd = mkdtempSync(join(scratch, 'cli-'));
    const log = join(cwd, 'stand-in.log');
    const prompts = Array.from({ length: 10 }, (_, index) => `prompt ${index + 1}`);
    const { stdout } = await runExample(
      'claude-cli-loop.ts',
      prompts,
      {
        CLAUDE_EXECUTABLE: standIn,
        CLAUDE_CONFIG_DIR: join(cwd, 'home'),
        WARPFOLD_FOLD_AT: '6000',
        STAND_IN_LOG: log,
        STAND_IN_OUTPUT_LINES: '40',
      },
      cwd,
    );
    for (let turn = 1; turn <= 10; turn++) expect(stdout).toContain(`turn ${turn} (session `);
    expect(stdout).toMatch(
      /folded \d+ raw messages into \d+ \((over-budget|first-call|tail-cap|cold-cache|boundary-changed)\), \d+ → \d+ bytes, backup .*\.warpfold-backup-/,
    );
    expect(stdout).toContain('starting from a warpfold fold');
    const runs = starts(log);
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.slice(1).every((start) => start.args.includes('--resume') && start.loadedFold)).toBe(true);
  }, 180_000);

  it('without prompts it prints its usage and exits with status 2', async () => {
    const failure = await runExample('claude-cli-loop.ts', [], {}, scratch).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2 });
  }, 180_000);
});

describe('examples/claude-tmux-loop.ts with real tmux and the stand-in claude', () => {
  it('prints the attach command, types the prompts, folds and resumes in the same pane', async () => {
    const cwd = mkdtempSync(join(scratch, 'tmux-'));
    const log = join(cwd, 'stand-in.log');
    const prompts = Array.from({ length: 9 }, (_, index) => `prompt ${index + 1}`);
    const { stdout } = await runExample(
      'claude-tmux-loop.ts',
      prompts,
      {
        CLAUDE_EXECUTABLE: standIn,
        CLAUDE_CONFIG_DIR: join(cwd, 'home'),
        WARPFOLD_FOLD_AT: '6000',
        WARPFOLD_TMUX_SOCKET: socket,
        WARPFOLD_SETTLE_MS: '300',
        WARPFOLD_EXIT_AFTER_FOLDS: '1',
        STAND_IN_LOG: log,
        STAND_IN_OUTPUT_LINES: '40',
      },
      cwd,
    );
    expect(stdout).toMatch(new RegExp(`Attach with:\\n  tmux -L '${socket}' attach -t 'warpfold-[0-9a-f]{8}'`));
    for (const prompt of prompts) expect(stdout).toContain(`answered: ${prompt}`);
    expect(stdout).toMatch(
      /folded \d+ raw messages into \d+ .* at \d+ input tokens; resumed with --resume [0-9a-f-]{36}/,
    );
    const runs = starts(log);
    expect(runs[0].args[0]).toBe('--session-id');
    expect(runs.slice(1).every((start) => start.args[0] === '--resume' && start.loadedFold)).toBe(true);
    expect(runs.length).toBeGreaterThan(1);
    // The last prompt reached the resumed CLI and is in its session file.
    const sessionFile = /session file (\S+)/.exec(stdout)![1];
    const file = readFileSync(sessionFile, 'utf8');
    expect(file).toContain('prompt 9');
  }, 180_000);
});
