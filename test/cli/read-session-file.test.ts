// A JSONL transcript streamed line by line reads exactly as the whole text does: same messages,
// same skipped lines with the same numbers, across chunk boundaries, CRLF line ends and a BOM.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSessionFile } from '../../src/node/cli/read-session-file.ts';
import { readTranscript } from '../../src/transcripts/index.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const folder = mkdtempSync(join(tmpdir(), 'warpfold-stream-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('readSessionFile', () => {
  const original = readFileSync(
    join(REPO_ROOT, 'test/fixtures/claude-code/57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl'),
    'utf8',
  );

  it('streams a JSONL file (larger than one read chunk) to the same result as reading it whole', async () => {
    const lines = original.split('\n');
    lines[3] = lines[3].slice(0, 25);
    const variants = {
      plain: original,
      damaged: lines.join('\n'),
      crlf: `\uFEFF${lines.join('\r\n')}`,
      noFinalNewline: original.trimEnd(),
    };
    expect(Buffer.byteLength(original)).toBeGreaterThan(64 * 1024);
    for (const [name, text] of Object.entries(variants)) {
      const path = join(folder, `${name}-57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl`);
      writeFileSync(path, text);
      const streamed = await readSessionFile(path);
      const whole = readTranscript(text, { fileName: path });
      expect(streamed, name).toEqual(whole);
    }
    const damaged = await readSessionFile(join(folder, 'damaged-57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl'));
    expect(damaged.issues.filter((issue) => issue.kind === 'unparseable').map((issue) => issue.line)).toEqual([4]);
  });

  it('reads a message array whole, and fails on a file that is not there', async () => {
    const path = join(REPO_ROOT, 'test/fixtures/sessions/tau-airline-gpt-4o-task02-trial1.json');
    expect(await readSessionFile(path)).toEqual(readTranscript(readFileSync(path, 'utf8'), { fileName: path }));
    await expect(readSessionFile(join(folder, 'missing.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
