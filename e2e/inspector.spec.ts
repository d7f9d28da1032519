/**
 * The inspector in Debian chromium, served from a production build by `vite preview` on
 * 127.0.0.1: the bundled sample loads, a late call shows the library's own numbers, a fold line
 * expands to its raw turn, malformed files get an error that names where.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { ProviderMessage } from '../src/index.ts';
import { startDemoServer, REPO_ROOT, type DemoServer } from './support/demo-server.ts';
import { referenceCalls, type ReferenceCall } from './support/reference.ts';

const SAMPLE = join(REPO_ROOT, 'demo/public/samples/pydicom-901.json');
const sample = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { messages: ProviderMessage[]; license: string };
const tokens = (value: number) => Math.round(value).toLocaleString('en-US');

let server: DemoServer;
let reference: ReferenceCall[];

test.beforeAll(async () => {
  reference = referenceCalls(sample.messages);
  server = await startDemoServer();
});
test.afterAll(async () => {
  await server?.close();
});

async function openFolded(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(server.url);
  await expect(page.locator('body')).toHaveAttribute('data-folded', 'true', { timeout: 60_000 });
}

test('the bundled sample loads with its source and licence, and folds in the worker', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await openFolded(page);
  await expect(page.locator('#source-line')).toContainText('benchmark-session');
  await expect(page.locator('#source-line')).toContainText(`licence ${sample.license}`);
  await expect(page.locator('#call-count')).toHaveText(String(reference.length));
  await expect(page.locator('#progress-text')).toContainText(`folded ${reference.length} calls`);
  // the fold ran in a worker: the page fetched the worker script, and only the worker loaded the tokenizer
  const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
  expect(scripts.some((name) => /fold-worker-[\w-]+\.js$/.test(name))).toBe(true);
  expect(errors).toEqual([]);
  await page.screenshot({ path: 'test-results/inspector-sample.png', fullPage: true });
});

test('a late call shows exactly the numbers the library gives for it', async ({ page }) => {
  await openFolded(page);
  await page.locator('#scrubber').focus();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const call = reference.length - 2;
  const expected = reference[call - 1];
  await expect(page.locator('#call-number')).toHaveText(String(call));
  await expect(page.getByTestId('history-length')).toHaveText(`${expected.historyLength} messages`);
  await expect(page.getByTestId('view-messages')).toHaveText(`${expected.viewMessages} messages`);
  await expect(page.getByTestId('view-tokens')).toHaveText(tokens(expected.viewTokens));
  await expect(page.getByTestId('raw-tokens')).toHaveText(tokens(expected.rawTokens));
  await expect(page.getByTestId('cached-tokens')).toHaveText(tokens(expected.cachedTokens));
  await expect(page.getByTestId('shared-prefix')).toHaveText(new RegExp(`^${expected.sharedPrefixMessages} msgs`));
  await expect(page.getByTestId('cost-warpfold')).toHaveText(expected.cumulativeCost.toFixed(4));
  await expect(page.getByTestId('cache-state')).toHaveText(
    expected.cacheHot
      ? 'hot (prefix reused)'
      : expected.epochReason
        ? new RegExp(`^epoch: ${expected.epochReason}`)
        : 'cold',
  );
  // the view pane shows that call's view, its shared prefix highlighted
  await expect(page.locator('#view-list > li')).toHaveCount(expected.viewMessages);
  await expect(page.locator('#view-list > li.shared')).toHaveCount(expected.sharedPrefixMessages);
  // the same numbers with the global keys: Home, then forward to the same call
  await page.locator('#view-title').click();
  await page.keyboard.press('Home');
  await expect(page.locator('#call-number')).toHaveText('1');
  await page.keyboard.press('End');
  await expect(page.locator('#call-number')).toHaveText(String(reference.length));
  await expect(page.getByTestId('view-tokens')).toHaveText(tokens(reference[reference.length - 1].viewTokens));
  await page.screenshot({ path: 'test-results/inspector-late-call.png', fullPage: true });
});

test('a line of a fold expands to the raw turn it came from', async ({ page }) => {
  await openFolded(page);
  await page.keyboard.press('End');
  const line = page.locator('#view-list li.band button.line[data-kind="assistant"]').first();
  await expect(line).toBeVisible();
  const index = Number(await line.getAttribute('data-message'));
  const shown = ((await line.textContent()) ?? '').replace(/^… /, '').replace(/ …$/, '').split(' … ')[0];
  const raw = sample.messages[index] as { content: string };
  expect(raw.content).toContain(shown.slice(0, 60));
  await line.click();
  await expect(line).toHaveAttribute('aria-expanded', 'true');
  const turn = page.getByTestId('raw-turn').first();
  await expect(turn).toHaveAttribute('data-index', String(index));
  await expect(turn).toContainText(raw.content.slice(0, 80));
  // and from there to the raw history pane
  await turn.getByRole('button', { name: 'show in raw history' }).click();
  await expect(page.locator(`#raw-${index}`)).toBeFocused();
  await expect(page.getByTestId('raw-detail')).toHaveAttribute('data-index', String(index));
  await expect(page.getByTestId('raw-detail')).toContainText(raw.content.slice(0, 80));
  await page.screenshot({ path: 'test-results/inspector-expanded-fold.png' });
});

test('malformed files get an error that names where, and the page keeps working', async ({ page }) => {
  await openFolded(page);
  const input = page.locator('#file-input');
  await input.setInputFiles({
    name: 'truncated.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"messages": [{"role": "user", "content": "hi"}'),
  });
  await expect(page.locator('#error')).toBeVisible();
  await expect(page.locator('#error')).toContainText('Could not load truncated.json — line 1:');
  await input.setInputFiles({
    name: 'orphan.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'call_9', content: 'orphan' },
        { role: 'assistant', content: 'ok' },
      ]),
    ),
  });
  await expect(page.locator('#error')).toContainText(
    'Could not load orphan.json — message 2: tool result "call_9" answers no pending tool call',
  );
  // the loaded session is still there
  await expect(page.locator('#call-count')).toHaveText(String(reference.length));
  await expect(page.locator('#view-list > li').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/inspector-error.png' });
});

test('episodes harvested from the sample persist across a reload and are found by path', async ({ page }) => {
  await openFolded(page);
  const episodes = page.locator('#episode-list li[data-episode]');
  await expect(episodes.first()).toBeVisible();
  const count = await episodes.count();
  expect(count).toBeGreaterThan(0);
  // reload without loading anything: what is listed now comes from IndexedDB alone
  await page.goto(`${server.url}?sample=none`);
  await expect(episodes).toHaveCount(count);
  await expect(episodes.first()).toContainText('pydicom-901.json');
  await page.locator('#episode-search').fill('pydicom/config.py');
  await expect(episodes.first()).toContainText('pydicom/config.py');
  await page.locator('#episode-search').fill('no/such/file.py');
  await expect(page.locator('#episode-list')).toContainText('No episode touched no/such/file.py');
  await expect(episodes).toHaveCount(0);
  const databases = await page.evaluate(async () => (await indexedDB.databases()).map((database) => database.name));
  expect(databases).toContain('warpfold-inspector');
  await page.locator('#episode-search').fill('');
  await page.screenshot({ path: 'test-results/inspector-episodes.png', fullPage: true });
});

test('dark theme, and every control reachable by keyboard with a visible focus', async ({ page }) => {
  await openFolded(page);
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(outline).not.toBe('none');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('body')).toHaveAttribute('data-folded', 'true', { timeout: 60_000 });
  await page.keyboard.press('End');
  await page.screenshot({ path: 'test-results/inspector-dark.png', fullPage: true });
});
