// The heap limit report and fold run under: sized to the largest transcript they will read.
import { closeSync, mkdtempSync, openSync, rmSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heapLimitFor } from '../../src/node/cli/heap-limit.ts';

const folder = mkdtempSync(join(tmpdir(), 'warpfold-heap-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function sparseFile(name: string, bytes: number): string {
  const path = join(folder, name);
  const descriptor = openSync(path, 'w');
  ftruncateSync(descriptor, bytes);
  closeSync(descriptor);
  return path;
}

describe('heapLimitFor', () => {
  it('gives report and fold 8 heap bytes per byte of their largest transcript, plus 256 MB, at least 512 MB', () => {
    const big = sparseFile('big.jsonl', 100 * 1024 * 1024);
    const small = sparseFile('small.jsonl', 1024);
    expect(heapLimitFor(['report', small, big, '--ceiling', '8000'])).toBe(1056);
    expect(heapLimitFor(['fold', big, '--out', 'view.json'])).toBe(1056);
    expect(heapLimitFor(['report', small])).toBe(512);
    // a folder counts its files
    expect(heapLimitFor(['report', folder, '--json'])).toBe(1056);
  });

  it('leaves inspect, help and a limit the user set alone', () => {
    const big = sparseFile('other.jsonl', 100 * 1024 * 1024);
    expect(heapLimitFor(['inspect', big])).toBeUndefined();
    expect(heapLimitFor(['--help'])).toBeUndefined();
    const saved = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = '--max-old-space-size=3000';
    try {
      expect(heapLimitFor(['report', big])).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = saved;
    }
  });
});
