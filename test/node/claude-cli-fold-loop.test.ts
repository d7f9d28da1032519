import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaudeCliError, ClaudeCliFoldLoop, DRY_RUN_SUFFIX } from '../../src/node/index.ts';
import { readClaudeCodeJsonl } from '../../src/transcripts/index.ts';

const standIn = fileURLToPath(new URL('../fixtures/stand-in-claude/claude', import.meta.url));
const directories: string[] = [];
const scratch = () => {
  const root = mkdtempSync(join(tmpdir(), 'warpfold-cli-loop-'));
  directories.push(root);
  return { claudeHome: join(root, 'claude-home'), cwd: root, log: join(root, 'stand-in.log') };
};
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
const starts = (log: string) =>
  readFileSync(log, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('ClaudeCliFoldLoop against the stand-in claude', () => {
  it('learns the session id, folds when measured usage reaches the budget, and resumes on the folded file', async () => {
    const { claudeHome, cwd, log } = scratch();
    const loop = new ClaudeCliFoldLoop({
      executable: standIn,
      cwd,
      claudeHome,
      foldAtTokens: 6_000,
      env: { ...process.env, STAND_IN_LOG: log, STAND_IN_OUTPUT_LINES: '40' },
      now: () => 1_764_583_200_000,
    });
    const measured: number[] = [];
    let foldTurn = -1;
    let sawFoldAfterResume = false;
    let lastTurnFolded = false;
    try {
      for (let turn = 0; turn < 16; turn++) {
        const result = await loop.send(`turn ${turn}: check module ${turn}`);
        lastTurnFolded = result.fold !== null;
        expect(result.isError).toBe(false);
        measured.push(result.usage!.measuredInputTokens);
        if (result.fold !== null && foldTurn < 0) foldTurn = turn;
        if (result.result.includes('starting from a warpfold fold')) sawFoldAfterResume = true;
      }
    } finally {
      await loop.close();
    }
    expect(loop.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(loop.sessionFile).toBe(
      join(claudeHome, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), `${loop.sessionId}.jsonl`),
    );
    expect(foldTurn).toBeGreaterThan(0);
    expect(loop.folds.length).toBeGreaterThanOrEqual(1);
    const first = loop.folds[0];
    expect(first).toMatchObject({ sessionId: loop.sessionId, path: loop.sessionFile, mode: 'write', hardEpoch: false });
    expect(first.epochReason).not.toBe('hard-epoch');
    expect(readFileSync(loop.sessionFile!, 'utf8')).toContain('[warpfold fold');
    expect(first.measuredInputTokens).toBeGreaterThanOrEqual(6_000);
    expect(first.bytesAfter).toBeLessThan(first.bytesBefore);
    // The turn after a fold reads a smaller context, from a file that starts with the fold.
    expect(measured[foldTurn + 1]).toBeLessThan(measured[foldTurn]);
    expect(sawFoldAfterResume).toBe(true);
    const runs = starts(log);
    expect(runs[0].args).not.toContain('--resume');
    expect(runs[1].args).toEqual(expect.arrayContaining(['--resume', loop.sessionId]));
    expect(runs[1].loadedFold).toBe(true);
    // every fold restarts the CLI on the folded file, but one after the last turn
    expect(runs.length).toBe(loop.folds.length + 1 - (lastTurnFolded ? 1 : 0));
    // The raw history the loop keeps grows across folds: every turn's prompt is in it once.
    const last = loop.folds.at(-1)!;
    expect(last.rawMessages).toBeGreaterThan(first.rawMessages);
    const final = readClaudeCodeJsonl(readFileSync(loop.sessionFile!, 'utf8'));
    expect(final.issues).toEqual([]);
    expect(JSON.stringify(final.messages)).toContain('turn 15: check module 15');
  });

  it('follows a CLI that copies the session into a new one on resume, keeping the whole raw history', async () => {
    const { claudeHome, cwd, log } = scratch();
    const loop = new ClaudeCliFoldLoop({
      executable: standIn,
      cwd,
      claudeHome,
      foldAtTokens: 6_000,
      env: { ...process.env, STAND_IN_LOG: log, STAND_IN_OUTPUT_LINES: '40', STAND_IN_FORK_ON_RESUME: '1' },
    });
    const sessions = new Set<string>();
    let lastTurnFolded = false;
    try {
      for (let turn = 0; turn < 16; turn++) {
        const result = await loop.send(`turn ${turn}: check module ${turn}`);
        sessions.add(result.sessionId);
        lastTurnFolded = result.fold !== null;
      }
    } finally {
      await loop.close();
    }
    expect(loop.folds.length).toBeGreaterThanOrEqual(2);
    expect(sessions.size).toBe(loop.folds.length + 1 - (lastTurnFolded ? 1 : 0));
    expect(loop.folds.map((fold) => fold.sessionId)).toEqual([...sessions].slice(0, loop.folds.length));
    // Each fold sees every message so far: the raw history carries over from one session file to the next.
    const raws = loop.folds.map((fold) => fold.rawMessages);
    for (let index = 1; index < raws.length; index++) expect(raws[index]).toBeGreaterThan(raws[index - 1]);
    expect(loop.folds.slice(1).every((fold) => fold.epochReason !== 'first-call')).toBe(true);
  });

  it('hard epoch: collapses the session to a rebirth seed at hardEpochAtTokens', async () => {
    const { claudeHome, cwd } = scratch();
    const loop = new ClaudeCliFoldLoop({
      executable: standIn,
      cwd,
      claudeHome,
      foldAtTokens: 5_000,
      hardEpochAtTokens: 5_000,
      env: { ...process.env, STAND_IN_OUTPUT_LINES: '40' },
    });
    try {
      let fold = null;
      for (let turn = 0; turn < 10 && fold === null; turn++) fold = (await loop.send(`turn ${turn}`)).fold;
      expect(fold).toMatchObject({ hardEpoch: true, epochReason: 'hard-epoch' });
      const next = await loop.send('after the epoch');
      expect(next.result).toContain('starting from a warpfold fold');
    } finally {
      await loop.close();
    }
  });

  it("mode 'dry-run' writes a sidecar, leaves the session file alone and keeps the CLI running", async () => {
    const { claudeHome, cwd, log } = scratch();
    const loop = new ClaudeCliFoldLoop({
      executable: standIn,
      cwd,
      claudeHome,
      foldAtTokens: 5_000,
      mode: 'dry-run',
      env: { ...process.env, STAND_IN_LOG: log, STAND_IN_OUTPUT_LINES: '40' },
    });
    try {
      let fold = null;
      for (let turn = 0; turn < 10 && fold === null; turn++) fold = (await loop.send(`turn ${turn}`)).fold;
      expect(fold).toMatchObject({ mode: 'dry-run', path: `${loop.sessionFile}${DRY_RUN_SUFFIX}` });
      const original = readClaudeCodeJsonl(readFileSync(loop.sessionFile!, 'utf8'));
      expect(JSON.stringify(original.messages)).not.toContain('[warpfold fold');
      expect(readFileSync(fold!.path, 'utf8')).toContain('[warpfold fold');
      await loop.send('one more');
    } finally {
      await loop.close();
    }
    expect(starts(log)).toHaveLength(1);
  });

  it('a backup keeps the raw session file before the first rewrite', async () => {
    const { claudeHome, cwd } = scratch();
    const loop = new ClaudeCliFoldLoop({
      executable: standIn,
      cwd,
      claudeHome,
      foldAtTokens: 5_000,
      backup: true,
      now: () => 1_764_583_200_000,
      env: { ...process.env, STAND_IN_OUTPUT_LINES: '40' },
    });
    try {
      let fold = null;
      for (let turn = 0; turn < 10 && fold === null; turn++) fold = (await loop.send(`turn ${turn}`)).fold;
      expect(fold?.backupPath).toBe(`${loop.sessionFile}.warpfold-backup-2025-12-01T10-00-00-000Z`);
      const backup = readFileSync(fold!.backupPath!, 'utf8');
      expect(backup).not.toContain('[warpfold fold');
      expect(Buffer.byteLength(backup)).toBe(fold!.bytesBefore);
      const names = readdirSync(join(claudeHome, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-')));
      expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      await loop.close();
    }
  });

  it('reports a CLI that exits before answering, with its stderr', async () => {
    const { cwd } = scratch();
    const loop = new ClaudeCliFoldLoop({
      executable: standIn,
      cwd,
      foldAtTokens: 4_000,
      resumeSessionId: '00000000-0000-4000-8000-000000000000',
      claudeHome: join(cwd, 'empty-home'),
    });
    await expect(loop.send('hello')).rejects.toThrow(ClaudeCliError);
    await expect(
      new ClaudeCliFoldLoop({
        executable: standIn,
        cwd,
        foldAtTokens: 4_000,
        resumeSessionId: '00000000-0000-4000-8000-000000000000',
        claudeHome: join(cwd, 'empty-home'),
      }).send('hello'),
    ).rejects.toThrow(/No conversation found with session ID/);
  });
});
