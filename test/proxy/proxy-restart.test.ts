import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/index.ts';
import { createMemoryStore } from '../../src/storage/memory.ts';
import { buildCli } from '../cli/support/built-cli.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';
import { CLAUDE_HEADERS, claudeCodeBody } from '../helpers/agent-requests.ts';
import { ScriptedUpstream } from '../helpers/scripted-upstream.ts';

const root = mkdtempSync(join(tmpdir(), 'warpfold-restart-'));
const upstream = new ScriptedUpstream();
let bin: string;
let upstreamUrl: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  bin = await buildCli(join(REPO_ROOT, 'node_modules/.cache/warpfold-proxy-cli'));
  upstreamUrl = await upstream.listen();
}, 180_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await upstream.close();
  rmSync(root, { recursive: true, force: true });
});

/** Starts the built `warpfold proxy` and resolves with the URL it prints. */
function startBuiltProxy(stateDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [bin, 'proxy', '--port', '0', '--ceiling', '40000', '--state-dir', stateDir, '--anthropic-upstream', upstreamUrl],
    { env: { PATH: process.env.PATH ?? '', HOME: root }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((text) => text.startsWith('http://'));
      if (line) resolve({ url: line.trim(), child });
    });
    child.on('exit', (code) => reject(new Error(`proxy exited with ${code}`)));
  });
}

describe('the built warpfold proxy, killed with SIGKILL and started again', () => {
  it('resumes the session byte for byte: every later request is what an uninterrupted proxy sends', async () => {
    const stateDir = join(root, 'state');
    const twin = new ScriptedUpstream();
    const uninterrupted = createGateway({ storage: createMemoryStore(), fetch: twin.fetch, ceiling: 40_000 });
    const send = async (url: string, call: number) => {
      const response = await fetch(`${url}/v1/messages?beta=true`, {
        method: 'POST',
        headers: CLAUDE_HEADERS,
        body: JSON.stringify(claudeCodeBody(call)),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-warpfold-verdict')).toMatch(/^(folded|passthrough)/);
      await response.text();
      const other = await uninterrupted.handle(
        new Request('http://twin/v1/messages?beta=true', {
          method: 'POST',
          headers: CLAUDE_HEADERS,
          body: JSON.stringify(claudeCodeBody(call)),
        }),
      );
      await other.text();
      await uninterrupted.idle();
      return upstream.calls.at(-1)?.text === twin.calls.at(-1)?.text;
    };
    let proxy = await startBuiltProxy(stateDir);
    for (let call = 8; call <= 12; call++) expect(await send(proxy.url, call), `call ${call}`).toBe(true);
    // the usage of the last answer is saved after the stream: wait for the ledger line, then kill mid-session
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && readFileSync(join(stateDir, 'ledger.jsonl'), 'utf8').trim().split('\n').length < 5)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    proxy.child.kill('SIGKILL');
    await new Promise((resolve) => proxy.child.once('exit', resolve));
    proxy = await startBuiltProxy(stateDir);
    for (let call = 13; call <= 18; call++) expect(await send(proxy.url, call), `call ${call}`).toBe(true);
    const ledger = readFileSync(join(stateDir, 'ledger.jsonl'), 'utf8').trim().split('\n');
    expect(ledger.length).toBeGreaterThanOrEqual(10);
    proxy.child.kill('SIGTERM');
    await new Promise((resolve) => proxy.child.once('exit', resolve));
  }, 120_000);
});
