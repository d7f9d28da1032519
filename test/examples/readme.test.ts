// The README's TypeScript examples run as a reader would run them: each block is written beside the
// other examples and run through tsx from the repository root, importing the built package by name.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const blocks = [...readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
  (match) => match[1],
);

describe('the README examples', () => {
  it('are there', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  it.each(blocks.map((block, index) => [index, block] as const))('block %i runs', (index, block) => {
    const file = join(REPO_ROOT, 'examples', `.readme-${index}.ts`);
    writeFileSync(file, block);
    try {
      const output = execFileSync(process.execPath, ['--import', 'tsx', file], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        stdio: 'pipe',
      });
      // the fold example reports its epochs and the saved state
      expect(output).toMatch(/^call before message \d+: over-budget, \d+ messages$/m);
      expect(output).toMatch(/^\d+ characters of saved state$/m);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
