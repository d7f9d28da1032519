import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DRY_RUN_SUFFIX,
  writeClaudeCodeSessionFile,
  writeCodexRolloutFile,
  writeFileAtomic,
  writeGeminiCliChatFile,
} from '../../src/node/index.ts';
import { buildCodexSeedItems } from '../../src/providers/codex-cli/index.ts';
import { readClaudeCodeJsonl, readCodexRolloutJsonl, readGeminiCliChat } from '../../src/transcripts/index.ts';

const roots: string[] = [];
const scratch = () => {
  const root = mkdtempSync(join(tmpdir(), 'warpfold-atomic-'));
  roots.push(root);
  return root;
};
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
const now = () => 1_764_583_200_000;

describe('writeFileAtomic', () => {
  it('replaces the file and leaves no temporary file behind', async () => {
    const root = scratch();
    const path = join(root, 'deep', 'session.jsonl');
    expect(await writeFileAtomic(path, 'one\n')).toEqual({ path, mode: 'write', backupPath: undefined, bytes: 4 });
    await writeFileAtomic(path, 'two\n');
    expect(readFileSync(path, 'utf8')).toBe('two\n');
    expect(readdirSync(join(root, 'deep'))).toEqual(['session.jsonl']);
  });

  it('keeps a raw backup before replacing, named by the injected clock', async () => {
    const root = scratch();
    const path = join(root, 'session.jsonl');
    writeFileSync(path, 'raw\n');
    const result = await writeFileAtomic(path, 'folded\n', { backup: true, now });
    expect(result.backupPath).toBe(`${path}.warpfold-backup-2025-12-01T10-00-00-000Z`);
    expect(readFileSync(result.backupPath!, 'utf8')).toBe('raw\n');
    expect(readFileSync(path, 'utf8')).toBe('folded\n');
    expect((await writeFileAtomic(join(root, 'new.jsonl'), 'x', { backup: true, now })).backupPath).toBeUndefined();
  });

  it('a dry run writes the sidecar and never touches the target', async () => {
    const root = scratch();
    const path = join(root, 'session.jsonl');
    writeFileSync(path, 'raw\n');
    const result = await writeFileAtomic(path, 'folded\n', { mode: 'dry-run' });
    expect(result).toEqual({ path: `${path}${DRY_RUN_SUFFIX}`, mode: 'dry-run', bytes: 7 });
    expect(readFileSync(path, 'utf8')).toBe('raw\n');
    expect(readFileSync(result.path, 'utf8')).toBe('folded\n');
  });

  it('a failed write leaves the old file whole and no temporary file', async () => {
    const root = scratch();
    const directory = join(root, 'locked');
    mkdirSync(directory);
    const path = join(directory, 'session.jsonl');
    writeFileSync(path, 'raw\n');
    // A target that is a directory cannot be renamed over: the write fails after the temp file exists.
    const blocked = join(directory, 'blocked');
    mkdirSync(join(blocked, 'inside'), { recursive: true });
    await expect(writeFileAtomic(blocked, 'folded\n')).rejects.toThrow();
    expect(readdirSync(directory).sort()).toEqual(['blocked', 'session.jsonl']);
    expect(readFileSync(path, 'utf8')).toBe('raw\n');
    await expect(writeFileAtomic(path, 'x', { mode: 'later' as never })).rejects.toThrow(
      /mode must be 'write' or 'dry-run', got "later"/,
    );
    await expect(writeFileAtomic(path, 'x', { mode: 'later' as never })).rejects.toMatchObject({
      name: 'FoldOptionsError',
      field: 'mode',
    });
  });
});

describe('the three CLI writers', () => {
  it('writes a Claude Code session where Claude Code keeps it', async () => {
    const claudeHome = join(scratch(), '.claude');
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    ];
    const result = await writeClaudeCodeSessionFile({ claudeHome, cwd: '/work/app', sessionId: 's-1', messages, now });
    expect(result.path).toBe(join(claudeHome, 'projects', '-work-app', 's-1.jsonl'));
    expect(readClaudeCodeJsonl(readFileSync(result.path, 'utf8')).messages).toEqual(messages);
  });

  it('writes a Codex rollout holding a seed', async () => {
    const path = join(scratch(), 'rollout-2026-12-01T10-00-00-s.jsonl');
    const items = buildCodexSeedItems([
      { role: 'user', text: 'seed' },
      { role: 'assistant', text: 'ok' },
    ]);
    await writeCodexRolloutFile({ path, sessionId: 's', cwd: '/w', items, now });
    expect(readCodexRolloutJsonl(readFileSync(path, 'utf8')).messages).toEqual([
      { role: 'user', content: 'seed' },
      { role: 'assistant', content: 'ok' },
    ]);
  });

  it('rewrites a Gemini CLI chat file in place, with a backup', async () => {
    const path = join(scratch(), 'session-2026-12-01T10-00-abcd1234.jsonl');
    const original =
      [
        { sessionId: 'abcd1234-0000', projectHash: 'h', startTime: 't', lastUpdated: 't' },
        { id: 'u1', timestamp: 't', type: 'user', content: 'hi' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n';
    writeFileSync(path, original);
    const contents = [{ role: 'user', parts: [{ text: '[warpfold fold · messages 1–1]' }] }];
    const result = await writeGeminiCliChatFile({ path, contents, now, backup: true });
    expect(readFileSync(result.backupPath!, 'utf8')).toBe(original);
    expect(readGeminiCliChat(readFileSync(path, 'utf8')).messages).toEqual(contents);
  });
});
