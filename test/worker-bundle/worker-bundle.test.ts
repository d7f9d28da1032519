// The edge worker bundles offline with `wrangler deploy --dry-run` and reports its size. Its gateway
// routes count each request with o200k, the one counting rule the proxy and the report use, so the
// o200k ranks are in the bundle, and no other encoding is.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
/**
 * The o200k ranks (about 1,000 KiB gzip) are most of it, then Hono, zod and the OpenAPI generator:
 * well under Cloudflare's 3 MiB gzip limit for a free-plan Worker. A bundle past this has picked up
 * something big.
 */
const GZIP_BUDGET_KIB = 1_600;

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

  it('holds the o200k ranks and no other encoding, and binds the four Durable Object classes', async () => {
    const bundle = await readFile(join(outdir, 'index.js'), 'utf8');
    expect(bundle).toContain('node_modules/gpt-tokenizer/esm/bpeRanks/o200k_base.js');
    for (const other of ['cl100k_base', 'p50k_base', 'r50k_base', 'o200k_harmony'])
      expect(bundle).not.toContain(`bpeRanks/${other}`);
    for (const name of ['FoldSessionObject', 'GatewaySessionObject', 'TenantObject', 'RateLimiterObject']) {
      expect(output).toContain(name);
    }
  });
});
