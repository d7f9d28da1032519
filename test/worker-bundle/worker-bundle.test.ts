// The edge worker bundles offline with `wrangler deploy --dry-run`, reports its size, and leaves
// the o200k tokenizer out (no route counts tokens exactly; the core's estimator plans the folds).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
/** Hono, zod and the OpenAPI generator are most of it; a bundle past this has picked up something big. */
const GZIP_BUDGET_KIB = 400;

let outdir: string;
let output: string;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'warpfold-worker-bundle-'));
  const result = await run(
    process.execPath,
    ['node_modules/wrangler/bin/wrangler.js', 'deploy', '--dry-run', '--outdir', outdir],
    {
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        NO_COLOR: '1',
        CI: '1',
      },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  output = result.stdout + result.stderr;
}, 120_000);

afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
});

describe('wrangler deploy --dry-run', () => {
  it('bundles the worker and reports its size within budget', () => {
    const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
    expect(size, output).not.toBeNull();
    console.log(`worker bundle: ${size![1]} KiB, ${size![2]} KiB gzip`);
    expect(Number(size![2])).toBeLessThan(GZIP_BUDGET_KIB);
  });

  it('leaves the tokenizer out and binds the three Durable Object classes', async () => {
    const bundle = await readFile(join(outdir, 'index.js'), 'utf8');
    expect(bundle).not.toContain('node_modules/gpt-tokenizer');
    expect(bundle).not.toContain('bpeRanks');
    for (const name of ['FoldSessionObject', 'TenantObject', 'RateLimiterObject']) expect(output).toContain(name);
  });
});
