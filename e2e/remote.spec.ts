/**
 * Remote mode against the real edge endpoint: `wrangler dev` (workerd from npm) on loopback with
 * CORS open to the inspector, a bearer token, and the inspector pointed at it. Every call is folded
 * by the endpoint's Durable Object; the numbers shown equal a local library run with the endpoint's
 * settings (its built-in estimator plans the view).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { ProviderMessage } from '../src/index.ts';
import { startWranglerDev, type WranglerDev } from '../test/helpers/wrangler-dev-process.ts';
import { REPO_ROOT, startDemoServer, type DemoServer } from './support/demo-server.ts';
import { referenceCalls } from './support/reference.ts';

const token = randomBytes(24).toString('base64url');
let directory: string;
let endpoint: WranglerDev;
let server: DemoServer;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  directory = await mkdtemp(join(tmpdir(), 'warpfold-remote-e2e-'));
  await writeFile(join(directory, '.dev.vars'), `WARPFOLD_TOKEN=${token}\n`);
  [endpoint, server] = await Promise.all([
    startWranglerDev({
      persistTo: join(directory, 'state'),
      envFile: join(directory, '.dev.vars'),
      vars: { CORS_ORIGINS: '*' },
    }),
    startDemoServer(),
  ]);
});
test.afterAll(async () => {
  await endpoint?.stop();
  await server?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
});

test('the inspector folds through the endpoint and shows what the library gives for its settings', async ({ page }) => {
  test.setTimeout(240_000);
  const sample = JSON.parse(await readFile(join(REPO_ROOT, 'demo/public/samples/pydicom-901.json'), 'utf8')) as {
    messages: ProviderMessage[];
  };
  const reference = referenceCalls(sample.messages, 8_000, null);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}?sample=none`);
  await page.locator('#remote-url').fill(endpoint.url);
  await page.locator('#remote-token').fill(token);
  await page.locator('#remote-on').check();
  await page.locator('#sample-select').selectOption('samples/pydicom-901.json');
  await expect(page.locator('body')).toHaveAttribute('data-folded', 'true', { timeout: 200_000 });
  await expect(page.locator('#call-count')).toHaveText(String(reference.length));
  await page.locator('#scrubber').focus();
  await page.keyboard.press('End');
  const last = reference[reference.length - 1];
  await expect(page.getByTestId('view-messages')).toHaveText(`${last.viewMessages} messages`);
  await expect(page.getByTestId('view-tokens')).toHaveText(Math.round(last.viewTokens).toLocaleString('en-US'));
  await expect(page.getByTestId('cost-warpfold')).toHaveText(last.cumulativeCost.toFixed(4));
  await expect(page.locator('#progress-text')).toContainText('remote');
  // the endpoint's copies of raw messages are matched back to the raw history
  await expect(page.locator('#view-list > li[data-kind="raw"]').first()).toBeVisible();
  await expect(page.locator('#view-list > li[data-kind="band"]').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/inspector-remote.png', fullPage: true });

  // a wrong token is refused, and the page says so
  await page.locator('#remote-token').fill('not-the-token');
  await page.locator('#remote-token').dispatchEvent('change');
  await expect(page.locator('#error')).toContainText('401', { timeout: 60_000 });
});
