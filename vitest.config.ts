import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { playwright } from '@vitest/browser-playwright';
import { randomBytes } from 'node:crypto';
import { defineConfig } from 'vitest/config';
import { chromiumLaunchOptions } from './chromium-launch-options.ts';

/** Fresh tokens every run, so no secret is ever committed: the worker tests read them back from the env. */
const testToken = () => randomBytes(24).toString('base64url');
const workerTestTokens = {
  [testToken()]: 'tenant-a',
  [testToken()]: 'tenant-b',
  [testToken()]: { tenant: 'tenant-a', readOnly: true },
  // two tokens of one tenant share its rate limit; one of them carries a name for the logs
  [testToken()]: 'tenant-limited',
  [testToken()]: { tenant: 'tenant-limited', name: 'ci-second-token' },
};

/**
 * Three real runtimes, one run: Node (unit, property, bench smoke), Chromium (browser mode with Debian
 * chromium, real IndexedDB) and workerd (Durable Objects, SQLite storage, KV).
 */
/** CI asks for a JSON report too, to prove that nothing was skipped (see .ci/run). */
const report = process.env.WARPFOLD_VITEST_REPORT;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // the edge worker logs one JSON line per request, which would drown the report; its warnings and errors still show
    onConsoleLog: (log) => !log.startsWith('{"level":"info"'),
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
    projects: [
      {
        test: {
          name: 'unit',
          // bench/test/ holds the benchmark's own tests, beside the code they test
          include: ['test/**/*.test.ts', 'bench/test/**/*.test.ts'],
          // test/clients/ drives the real agent CLIs: its own config, run by `npm run test:clients`
          exclude: ['test/browser/**', 'test/workerd/**', 'test/worker/**', 'test/deno/**', 'test/clients/**'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            api: { host: '127.0.0.1', port: 63315, strictPort: true },
            provider: playwright({ launchOptions: chromiumLaunchOptions }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: './test/workerd/wrangler.toml' } })],
        test: {
          name: 'workerd',
          include: ['test/workerd/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        // the edge endpoint itself (root wrangler.toml) inside workerd: routes, Durable Objects, limits
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                WARPFOLD_TOKENS: JSON.stringify(workerTestTokens),
                WARPFOLD_BENCH_HOOKS: '1',
                RATE_LIMIT_REQUESTS: '100000',
              },
            },
          }),
        ],
        test: {
          name: 'worker',
          include: ['test/worker/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
