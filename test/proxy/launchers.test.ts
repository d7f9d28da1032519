import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../cli/support/built-cli.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';
import { ScriptedUpstream } from '../helpers/scripted-upstream.ts';

const root = mkdtempSync(join(tmpdir(), 'warpfold-launch-'));
const upstream = new ScriptedUpstream();
const stateDir = join(root, 'state');
const binDir = join(root, 'bin');
let cli: string;
let upstreamUrl: string;

/** A stand-in agent on PATH: calls the API its environment or flags point at, records what it saw, exits with `code`. */
function fakeAgent(name: string, code: number, script: string): void {
  const path = join(binDir, name);
  writeFileSync(
    path,
    `#!${process.execPath}\nconst fs = require('node:fs');\nconst args = process.argv.slice(2);\n(async () => {\n${script}\n  process.exit(${code});\n})();\n`,
  );
  chmodSync(path, 0o755);
}

beforeAll(async () => {
  cli = await buildCli(join(REPO_ROOT, 'node_modules/.cache/warpfold-launch-cli'));
  upstreamUrl = await upstream.listen();
  mkdirSync(binDir, { recursive: true });
  fakeAgent(
    'claude',
    7,
    `const base = process.env.ANTHROPIC_BASE_URL;
  const response = await fetch(base + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }) });
  fs.writeFileSync(${JSON.stringify(join(root, 'claude.json'))}, JSON.stringify({ base, args, verdict: response.headers.get('x-warpfold-verdict'), text: await response.text() }));`,
  );
  fakeAgent(
    'codex',
    0,
    `const setting = args.find((arg) => arg.startsWith('model_providers.warpfold.base_url='));
  const base = JSON.parse(setting.split('=').slice(1).join('='));
  const response = await fetch(base + '/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-5', input: [{ role: 'user', content: 'hi' }] }) });
  fs.writeFileSync(${JSON.stringify(join(root, 'codex.json'))}, JSON.stringify({ args, verdict: response.headers.get('x-warpfold-verdict') }));`,
  );
}, 180_000);

afterAll(async () => {
  try {
    const { pid } = JSON.parse(readFileSync(join(stateDir, 'proxy.json'), 'utf8')) as { pid: number };
    process.kill(pid, 'SIGTERM');
  } catch {
    // no proxy left running
  }
  await upstream.close();
  rmSync(root, { recursive: true, force: true });
});

/** The built bin, run asynchronously: the scripted upstream answers from this very process. */
function run(args: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: `${binDir}:${process.env.PATH ?? ''}`, HOME: root },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stderr })));
}

describe('warpfold claude|codex launchers', () => {
  it('start a proxy once, point each agent at it without touching its config, and pass its exit code through', async () => {
    const flags = ['--state-dir', stateDir, '--anthropic-upstream', upstreamUrl, '--openai-upstream', upstreamUrl];
    const claude = await run(['claude', ...flags, '--', '-p', 'hello']);
    expect(claude.status, claude.stderr).toBe(7);
    const seen = JSON.parse(readFileSync(join(root, 'claude.json'), 'utf8'));
    expect(seen.args).toEqual(['-p', 'hello']);
    expect(seen.verdict).toBe('passthrough; reason=under-ceiling');
    expect(seen.text).toContain('ok');
    const first = JSON.parse(readFileSync(join(stateDir, 'proxy.json'), 'utf8'));
    expect(seen.base).toBe(first.url);

    const codex = await run(['codex', ...flags, '--', 'exec', 'hi']);
    expect(codex.status, codex.stderr).toBe(0);
    const codexSeen = JSON.parse(readFileSync(join(root, 'codex.json'), 'utf8'));
    expect(codexSeen.args).toContain('model_provider="warpfold"');
    expect(codexSeen.args.slice(-2)).toEqual(['exec', 'hi']);
    expect(codexSeen.verdict).toBe('passthrough; reason=under-ceiling');
    // the running proxy was reused
    expect(JSON.parse(readFileSync(join(stateDir, 'proxy.json'), 'utf8')).pid).toBe(first.pid);
    expect(upstream.calls.map((call) => call.path)).toEqual(['/v1/messages', '/v1/responses']);
  }, 120_000);

  it('an agent missing from PATH exits 127', async () => {
    const result = await run(['gemini', '--state-dir', stateDir]);
    expect(result.status).toBe(127);
    expect(result.stderr).toContain('gemini is not on PATH');
  }, 60_000);
});
