import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { chromiumLaunchOptions } from './chromium-launch-options.ts';

/**
 * Three real runtimes, one run: Node (unit, property, bench smoke), Chromium (browser mode with Debian
 * chromium, real IndexedDB) and workerd (Durable Objects, SQLite storage, KV).
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', 'test/workerd/**', 'test/deno/**'],
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
    ],
  },
});
