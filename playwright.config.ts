import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium-launch-options.ts';

/**
 * End-to-end tests in Debian chromium. There is no global web server: each spec starts the server it
 * needs (Vite, wrangler dev) on 127.0.0.1 with a free port, so specs stay independent.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  workers: 1,
  timeout: 120_000,
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  use: {
    ...devices['Desktop Chrome'],
    launchOptions: chromiumLaunchOptions,
    screenshot: 'only-on-failure',
  },
  projects: [{ name: 'chromium' }],
});
