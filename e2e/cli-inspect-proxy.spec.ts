/**
 * `warpfold inspect --proxy URL` as a user runs it: the built bin starts `warpfold proxy` in front
 * of the scripted provider, an agent's calls go through it, and a second run of the bin prints the
 * proxy's sessions and serves the built inspector; Chromium opens the URL it prints and folds the
 * session's raw history, read live from the proxy.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { build } from 'vite';
import { buildCli } from '../test/cli/support/built-cli.ts';
import { CLAUDE_HEADERS, claudeCodeBody } from '../test/helpers/agent-requests.ts';
import { ScriptedUpstream } from '../test/helpers/scripted-upstream.ts';
import { REPO_ROOT } from './support/demo-server.ts';

const LAST_CALL = 14;

let root: string;
const upstream = new ScriptedUpstream();
const children: ChildProcess[] = [];
let inspectorUrl: string;
let table: string;

/** Runs the bin and resolves with what it printed up to its first http:// line. */
function runUntilUrl(
  bin: string,
  args: readonly string[],
): Promise<{ child: ChildProcess; stdout: string; url: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('http://'));
      if (line) resolve({ child, stdout, url: line.trim() });
    });
    child.once('exit', (code) => reject(new Error(`warpfold ${args[0]} exited ${code}: ${stderr}`)));
  });
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  root = mkdtempSync(join(tmpdir(), 'warpfold-inspect-proxy-'));
  const bin = await buildCli(root);
  await build({
    configFile: join(REPO_ROOT, 'vite.demo.config.ts'),
    logLevel: 'warn',
    build: { outDir: join(root, 'dist-inspector'), emptyOutDir: true },
  });
  const provider = await upstream.listen();
  const proxy = await runUntilUrl(bin, [
    'proxy',
    '--ceiling',
    '40000',
    '--anthropic-upstream',
    provider,
    '--state-dir',
    join(root, 'state'),
  ]);
  for (let call = 10; call <= LAST_CALL; call++) {
    const response = await fetch(`${proxy.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: CLAUDE_HEADERS,
      body: JSON.stringify(claudeCodeBody(call)),
    });
    await response.text();
  }
  const inspect = await runUntilUrl(bin, ['inspect', '--proxy', proxy.url]);
  inspectorUrl = inspect.url;
  table = inspect.stdout;
});

test.afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
  await upstream.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

test("warpfold inspect --proxy prints the proxy's sessions and opens the latest one folded in the inspector", async ({
  page,
}) => {
  expect(table).toMatch(/^session +model +calls +folded +raw tokens/m);
  expect(table).toMatch(/^anthropic:\S+ +claude-sonnet-4-5-20250929 +5 +[1-5] /m);
  expect(inspectorUrl).toMatch(
    /^http:\/\/127\.0\.0\.1:\d+\/\?sample=.*&ceiling=\d+&price=claude-sonnet-4-5&pending=1$/,
  );
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(inspectorUrl);
  await expect(page.locator('body')).toHaveAttribute('data-folded', 'true', { timeout: 60_000 });
  const messages = (claudeCodeBody(LAST_CALL).messages as unknown[]).length;
  await expect(page.locator('#source-line')).toContainText(`benchmark-session · ${messages} messages`);
  // a call before each assistant message of the last call's history, and that last call itself
  expect(Number(await page.locator('#call-count').textContent())).toBe(LAST_CALL);
  expect(errors).toEqual([]);
  await page.screenshot({ path: 'test-results/cli-inspect-proxy.png', fullPage: true });
});
