/**
 * `warpfold inspect FILE` as a user runs it: the built bin (dist/cli.js) beside the built inspector
 * (dist-inspector/), started as a child process on a Claude Code session; Chromium opens the URL it
 * prints and sees that session's fold timeline, read from the local server only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { build } from 'vite';
import { buildCli } from '../test/cli/support/built-cli.ts';
import { REPO_ROOT } from './support/demo-server.ts';

const SESSION = join(REPO_ROOT, 'test/fixtures/claude-code/57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl');

let root: string;
let child: ChildProcess;
let url: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  root = mkdtempSync(join(tmpdir(), 'warpfold-inspect-'));
  // the library and dist/cli.js (vite.config.ts makes the library only)
  const bin = await buildCli(root);
  await build({
    configFile: join(REPO_ROOT, 'vite.demo.config.ts'),
    logLevel: 'warn',
    build: { outDir: join(root, 'dist-inspector'), emptyOutDir: true },
  });
  child = spawn(process.execPath, [bin, 'inspect', SESSION], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('http://'));
      if (line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`warpfold inspect exited ${code}`)));
  });
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

test('warpfold inspect serves the inspector on 127.0.0.1 with the session loaded and folded', async ({
  page,
  request,
}) => {
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?sample=/);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(url);
  await expect(page.locator('body')).toHaveAttribute('data-folded', 'true', { timeout: 60_000 });
  await expect(page.locator('#source-line')).toContainText(
    '57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl · claude-code-jsonl',
  );
  const calls = Number(await page.locator('#call-count').textContent());
  expect(calls).toBeGreaterThan(10);
  await expect(page.locator('#timeline')).toHaveAttribute(
    'aria-label',
    new RegExp(`^Prompt size of ${calls} calls against`),
  );
  // the page read the file from the local server, byte for byte
  const served = await request.get(new URL(decodeURIComponent(new URL(url).searchParams.get('sample')!), url).href);
  expect(await served.text()).toBe(readFileSync(SESSION, 'utf8'));
  // nothing else on the disk is reachable
  for (const path of ['/../package.json', '/%2e%2e/package.json', '/local-session/other.jsonl'])
    expect((await request.get(new URL(path, url).href)).status(), path).toBeGreaterThanOrEqual(403);
  expect(errors).toEqual([]);
  await page.screenshot({ path: 'test-results/cli-inspect.png', fullPage: true });
});
