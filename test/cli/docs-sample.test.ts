/**
 * docs/cli.md shows what `warpfold report` prints: its sample table is compared with a fresh run of
 * the command it names, every character but the fold times (which vary run to run).
 * `UPDATE_DOCS=1 npx vitest run test/cli/docs-sample.test.ts` rewrites the sample.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCliOutput } from '../../src/node/cli/cli-output.ts';
import { runCli } from '../../src/node/cli/run-cli.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const DOC = join(REPO_ROOT, 'docs/cli.md');
const SAMPLE = /(<!-- report-sample:start -->\n```\n)([\s\S]*?)(```\n<!-- report-sample:end -->)/;
const ARGS = [
  'report',
  'test/fixtures/claude-code/57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl',
  'test/fixtures/claude-code/7d1c2e9a-5b3f-4c8e-9a21-3f6b0c4d8e17.jsonl',
];

/** The fold-time column is the last one: blank it, keeping the alignment. */
const withoutFoldTimes = (table: string): string =>
  table.replace(/ +\d+(?:\.\d)? m?s$/gm, (cell) => ' '.repeat(cell.length - 1) + '·');

async function freshRun(): Promise<string> {
  let stdout = '';
  const out = new PassThrough().on('data', (chunk) => (stdout += chunk));
  const err = new PassThrough();
  const previous = process.cwd();
  process.chdir(REPO_ROOT);
  try {
    expect(await runCli(ARGS, createCliOutput(out, err))).toBe(0);
  } finally {
    process.chdir(previous);
  }
  return stdout;
}

describe('docs/cli.md', () => {
  it('shows the table `warpfold report` prints for the bundled Claude Code sessions', async () => {
    const fresh = await freshRun();
    const doc = readFileSync(DOC, 'utf8');
    const sample = SAMPLE.exec(doc);
    expect(sample, 'the report-sample markers in docs/cli.md').not.toBeNull();
    expect(doc).toContain(`warpfold ${ARGS.join(' ')}`);
    if (process.env.UPDATE_DOCS === '1')
      writeFileSync(
        DOC,
        doc.replace(SAMPLE, (_, start, _old, end) => `${start}${fresh}${end}`),
      );
    else expect(withoutFoldTimes(sample![2])).toBe(withoutFoldTimes(fresh));
  }, 120_000);
});
