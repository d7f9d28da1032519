/**
 * Resume acceptance in a real browser: a page runs a FoldSession over a real session, saving it to
 * IndexedDB after every call; the page is reloaded for real; the restored session's next views are
 * byte-identical to an uninterrupted run computed here in Node with the same library.
 */
import { readFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';
import type { ProviderMessage } from '../src/index.ts';
import { uninterruptedRun, type CallResult } from '../test/storage/resume-driver.ts';
import './resume-page/api.ts';

const repository = fileURLToPath(new URL('..', import.meta.url));
const history = (
  JSON.parse(
    readFileSync(
      new URL('../test/saved-state/fixtures/sweagent-gpt4-pydicom__pydicom-1458.json', import.meta.url),
      'utf8',
    ),
  ) as { messages: ProviderMessage[] }
).messages;
/** After call 7 the session has sealed bands and more epochs follow: the restore has real state to carry. */
const SPLIT = 7;

let server: ViteDevServer;
let origin: string;
let expected: CallResult[];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

test.beforeAll(async () => {
  expected = await uninterruptedRun(history);
  const port = await freePort();
  server = await createServer({
    configFile: false,
    root: fileURLToPath(new URL('./resume-page/', import.meta.url)),
    logLevel: 'error',
    // bundled before the page asks, so the dev server never reloads the page on its own
    optimizeDeps: { include: ['idb', 'gpt-tokenizer/encoding/o200k_base'], noDiscovery: true },
    server: { host: '127.0.0.1', port, strictPort: true, hmr: false, fs: { allow: [repository] } },
  });
  await server.listen();
  origin = `http://127.0.0.1:${port}`;
});

test.afterAll(async () => {
  await server?.close();
});

async function openPage(page: Page): Promise<void> {
  await page.goto(`${origin}/index.html`);
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 60_000 });
}

test('a reloaded page resumes its FoldSession from IndexedDB with byte-identical next views', async ({ page }) => {
  expect(expected).toHaveLength(13);
  expect(expected[SPLIT - 1].bands).toBeGreaterThan(0);
  expect(expected.slice(SPLIT).some((result) => result.epochReason !== null)).toBe(true);

  await openPage(page);
  const first = await page.evaluate(([messages, calls]) => window.warpfoldResume!.runFirst(messages, calls), [
    history,
    SPLIT,
  ] as const);
  expect(first.results).toEqual(expected.slice(0, SPLIT));
  expect(first.savedVersion).toBe(SPLIT);

  await page.evaluate(() => Object.assign(window, { beforeReload: true }));
  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 60_000 });
  expect(await page.evaluate(() => 'beforeReload' in window)).toBe(false);

  const resumed = await page.evaluate(([messages, from, to]) => window.warpfoldResume!.resume(messages, from, to), [
    history,
    SPLIT,
    expected.length,
  ] as const);
  expect(resumed.loadedVersion).toBe(SPLIT);
  expect(resumed.results.map((result) => result.digest)).toEqual(expected.slice(SPLIT).map((result) => result.digest));
  expect(resumed.results).toEqual(expected.slice(SPLIT));
});
