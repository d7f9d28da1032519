/**
 * The browser chat example without an API key: it replays the recorded Claude Code session call
 * by call, folds before every call, marks Anthropic cache breakpoints, and its history (kept in
 * IndexedDB) survives a reload.
 */
import { expect, test } from '@playwright/test';
import { startDemoServer, type DemoServer } from './support/demo-server.ts';

let server: DemoServer;
test.beforeAll(async () => {
  server = await startDemoServer();
});
test.afterAll(async () => {
  await server?.close();
});

const count = async (text: string | null) => Number(/\((\d+) messages\)/.exec(text ?? '')?.[1] ?? NaN);

test('replays without a key, folds before every call, and keeps its history across a reload', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}chat.html`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('history-count')).toHaveText('(0 messages)');

  for (let step = 0; step < 4; step++) await page.getByRole('button', { name: 'Replay next call' }).click();
  await expect(page.getByTestId('chat-status')).toContainText('replay:');
  const afterSteps = await count(await page.getByTestId('history-count').textContent());
  expect(afterSteps).toBeGreaterThan(4);
  await expect(page.locator('#request li[data-breakpoint="true"]')).not.toHaveCount(0);

  // the rest of the recorded session; the ceiling makes it fold
  await page.getByRole('button', { name: 'Replay all' }).click();
  await expect(page.getByTestId('chat-status')).toHaveText('replay finished', { timeout: 60_000 });
  const raw = await count(await page.getByTestId('history-count').textContent());
  const summary = (await page.getByTestId('request-summary').textContent()) ?? '';
  const sent = Number(/\((\d+) messages for (\d+) raw/.exec(summary)?.[1]);
  expect(raw).toBeGreaterThan(afterSteps);
  // the last request is a fold of the history: fewer messages, a fold band among them, breakpoints marked
  expect(sent).toBeLessThan(raw);
  await expect(page.locator('#request li').filter({ hasText: '[warpfold fold' }).first()).toBeVisible();
  expect(summary).toMatch(/breakpoints at \d+/);
  // the history pane shows the newest message, not one somewhere above it
  const newest = page.locator('#history > li').last();
  await expect(newest).toHaveAttribute('data-index', String(raw - 1));
  await expect(newest).toBeInViewport();
  await page.screenshot({ path: 'test-results/chat-replayed.png', fullPage: true });

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('history-count')).toHaveText(`(${raw} messages)`);
  await expect(page.getByTestId('request-summary')).toHaveText(summary);
  await expect(page.getByTestId('chat-status')).toHaveText('replay finished');
  // the history really is in IndexedDB, stored through warpfold/storage/indexeddb (a session record), read back outside the page's code
  const stored = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('warpfold-chat-store');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('records').objectStore('records').get('session/chat');
          read.onsuccess = () => {
            if (typeof read.result !== 'string') return resolve(-1);
            const record = JSON.parse(read.result) as {
              kind: string;
              state: { messages: unknown[] };
            };
            resolve(record.kind === 'session' ? record.state.messages.length : -1);
          };
          read.onerror = () => reject(read.error);
        };
      }),
  );
  expect(stored).toBe(raw);
  expect(errors).toEqual([]);
});

test('sending without an API key keeps the typed message and says why', async ({ page }) => {
  await page.goto(`${server.url}chat.html`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const before = await page.getByTestId('history-count').textContent();
  await page.locator('#api-key').fill('');
  await page.locator('#prompt').fill('Please summarise the session so far.');
  await page.locator('#composer button[type="submit"]').click();
  await expect(page.locator('#error')).toContainText('Paste an Anthropic API key');
  await expect(page.locator('#prompt')).toHaveValue('Please summarise the session so far.');
  await expect(page.getByTestId('history-count')).toHaveText(before ?? '');
});
