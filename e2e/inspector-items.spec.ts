/**
 * The inspector's rough edges a new user met, each checked in Chromium: one message numbering, a
 * timeline that keeps the ceiling readable on a 137k-token session, a second file that opens at its
 * own landing call, the glossary, and Episodes titles in the user's words.
 */
import { expect, test, type Page } from '@playwright/test';
import { startDemoServer, type DemoServer } from './support/demo-server.ts';

let server: DemoServer;
test.beforeAll(async () => {
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

async function loadFile(page: Page, name: string, value: unknown): Promise<void> {
  await page.locator('body').evaluate((body) => (body.dataset.folded = 'false'));
  await page
    .locator('#file-input')
    .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(value)) });
  await expect(page.locator('body')).toHaveAttribute('data-folded', 'true', { timeout: 60_000 });
}

/** An agent session whose raw history passes 137k tokens: 60 tool calls, each reading a long file. */
function longSession(): unknown[] {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Find where the parser loses line numbers.' },
  ];
  for (let step = 0; step < 60; step++) {
    messages.push({
      role: 'assistant',
      content: `Reading part ${step}.`,
      tool_calls: [
        {
          id: `call_${step}`,
          type: 'function',
          function: { name: 'read_file', arguments: JSON.stringify({ path: `src/parser/part_${step}.ts` }) },
        },
      ],
    });
    const lines = Array.from(
      { length: 260 },
      (_, line) =>
        `export const value_${step}_${line} = parseLine(input, ${line}); // keeps offset ${step * 1000 + line}`,
    );
    messages.push({ role: 'tool', tool_call_id: `call_${step}`, content: lines.join('\n') });
  }
  messages.push({ role: 'assistant', content: 'Found it in src/parser/part_3.ts.' });
  return messages;
}

test('one numbering: a band header, its receipt, its lines and the raw list all count messages from 1', async ({
  page,
}) => {
  await openFolded(page);
  await page.locator('#scrubber').focus();
  await page.keyboard.press('End');
  // the view of the last call is painted a frame later, in place of the landing call's
  const last = await page.locator('#scrubber').getAttribute('max');
  await expect(page.locator('#view-list')).toHaveAttribute('data-call', last!);
  const band = page.locator('#view-list > li[data-kind="band"]').first();
  await expect(band).toBeVisible();
  const header = (await band.locator('.mono').first().textContent()) ?? '';
  const [, from, to] = /messages (\d+)–(\d+)/.exec(header)!;
  // the receipt of the call that sealed it covers this band (a merge's receipt covers every band it wrote), in the same numbering
  const receipt = (await band.getByTestId('receipt-meta').textContent()) ?? '';
  const [, receiptFrom, receiptTo] = /messages (\d+)–(\d+) ·/.exec(receipt)!;
  expect(Number(receiptFrom)).toBe(Number(from));
  expect(Number(receiptTo)).toBeGreaterThanOrEqual(Number(to));
  // a band line names the raw message it came from with the same numbering as the raw list
  const line = band.locator('button.line').first();
  const index = Number(await line.getAttribute('data-message'));
  await expect(line).toHaveAttribute('title', `from raw message #${index + 1}: click to expand`);
  expect(index + 1).toBeGreaterThanOrEqual(Number(from));
  expect(index + 1).toBeLessThanOrEqual(Number(to));
  await expect(page.locator('#raw-0 .role')).toHaveText(/^#1 /);
});

test('on a 137k-token session the ceiling line sits at least a fifth of the timeline above its base', async ({
  page,
}) => {
  await openFolded(page);
  await loadFile(page, 'long-session.json', longSession());
  await page.locator('#scrubber').focus();
  await page.keyboard.press('End');
  // the raw total updates once the new file's last call is drawn
  await expect
    .poll(async () => Number(((await page.getByTestId('raw-tokens').textContent()) ?? '0').replace(/,/g, '')))
    .toBeGreaterThan(137_000);
  const timeline = page.locator('#timeline');
  await expect(timeline).toHaveAttribute('data-raw-clipped', 'true');
  expect(Number(await timeline.getAttribute('data-ceiling-height'))).toBeGreaterThanOrEqual(0.2);
  await page.screenshot({ path: 'test-results/inspector-137k-timeline.png' });
});

test('a second file opens at its own first fold, not at the call the first file was on', async ({ page }) => {
  await openFolded(page);
  // the sample opens at its first fold: an epoch, not call 1 where nothing is folded yet
  await expect(page.getByTestId('cache-state')).toHaveText(/^epoch: /);
  const sampleLanding = Number(await page.locator('#call-number').textContent());
  expect(sampleLanding).toBeGreaterThan(1);
  await expect(page.getByTestId('landing-why')).toHaveText(`Opened at call ${sampleLanding}: its first fold.`);
  await page.locator('#scrubber').focus();
  await page.keyboard.press('End');
  const last = Number(await page.locator('#call-count').textContent());
  await expect(page.locator('#call-number')).toHaveText(String(last));
  await loadFile(page, 'long-session.json', longSession());
  await expect(page.getByTestId('cache-state')).toHaveText(/^epoch: /);
  const landing = Number(await page.locator('#call-number').textContent());
  expect(landing).toBeGreaterThan(1);
  expect(landing).not.toBe(last);
});

test('the page explains its words', async ({ page }) => {
  await openFolded(page);
  // open from the start: a first-time reader should not have to find it
  const glossary = page.locator('#glossary');
  await expect(glossary).toHaveAttribute('open', '');
  for (const term of ['shown · clipped · counted', 'epoch · (merge)', 'retention at need', 'fnv1a32:…', '⌖ closet'])
    await expect(glossary.locator('dt', { hasText: term })).toBeVisible();
});

test('Episodes titles read as the user typed them, with no device file and no emoji cut in half', async ({ page }) => {
  await openFolded(page);
  await page.locator('#episodes-clear').click();
  const request = `<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>${'x'.repeat(191)}🎉 src/app.ts</command-args>`;
  const session = [
    { role: 'user', content: request },
    {
      role: 'assistant',
      content: 'Writing.',
      tool_calls: [
        {
          id: 'w1',
          type: 'function',
          function: { name: 'Write', arguments: JSON.stringify({ file_path: 'src/app.ts', content: 'export {};' }) },
        },
        {
          id: 'w2',
          type: 'function',
          function: { name: 'Write', arguments: JSON.stringify({ file_path: 'nul', content: '' }) },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'w1', content: 'File written: src/app.ts' },
    { role: 'tool', tool_call_id: 'w2', content: 'File written: nul' },
    { role: 'assistant', content: 'Done: src/app.ts reviewed.' },
  ];
  await loadFile(page, 'markup.json', session);
  const episode = page.locator('#episode-list li[data-episode]').first();
  await expect(episode).toBeVisible();
  const title = (await episode.locator('.episode-title').textContent()) ?? '';
  // "/review " and 191 letters: the emoji straddles the 200th UTF-16 unit that a plain slice cut at
  expect(title.startsWith(`/review ${'x'.repeat(191)}🎉`)).toBe(true);
  expect(title).not.toContain('<command');
  expect(title).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  const files = (await episode.locator('.files').textContent()) ?? '';
  expect(files).toContain('src/app.ts');
  expect(files).not.toMatch(/\bnul\b/);
});
