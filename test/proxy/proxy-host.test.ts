import Anthropic from '@anthropic-ai/sdk';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../../src/node/proxy/start-proxy.ts';
import { CLAUDE_HEADERS, CLAUDE_SYSTEM, CLAUDE_TOOLS, claudeCodeBody, codexBody } from '../helpers/agent-requests.ts';
import { ScriptedUpstream } from '../helpers/scripted-upstream.ts';

const root = mkdtempSync(join(tmpdir(), 'warpfold-proxy-'));
const upstream = new ScriptedUpstream();
let proxy: RunningProxy;

beforeAll(async () => {
  const url = await upstream.listen();
  proxy = await startProxy({
    port: 0,
    stateDir: join(root, 'state'),
    ceiling: 40_000,
    upstreams: { anthropic: url, openai: url, gemini: url },
  });
});

afterAll(async () => {
  await proxy.close();
  await upstream.close();
  rmSync(root, { recursive: true, force: true });
});

describe('warpfold proxy on Node sockets', () => {
  it('serves @anthropic-ai/sdk streams through a folded session, writing proxy.json and ledger.jsonl', async () => {
    const client = new Anthropic({ apiKey: 'sk-test', baseURL: proxy.url, maxRetries: 0 });
    for (let call = 10; call <= 13; call++) {
      const body = claudeCodeBody(call);
      const stream = client.messages.stream(
        {
          model: body.model as string,
          max_tokens: 1024,
          system: CLAUDE_SYSTEM as never,
          tools: CLAUDE_TOOLS as never,
          messages: body.messages as never,
          metadata: body.metadata as never,
        },
        { headers: { 'anthropic-beta': CLAUDE_HEADERS['anthropic-beta'] } },
      );
      const text: string[] = [];
      stream.on('text', (delta) => text.push(delta));
      const message = await stream.finalMessage();
      expect(text.join('')).toMatch(/^ok \d+$/);
      expect(message.usage.cache_read_input_tokens ?? 0).toBeGreaterThanOrEqual(0);
      const sent = upstream.calls.at(-1);
      expect(sent?.headers.get('anthropic-beta')).toBe(CLAUDE_HEADERS['anthropic-beta']);
      expect(sent?.headers.get('x-api-key') ?? sent?.headers.get('authorization')).toBeTruthy();
    }
    await proxy.gateway.idle();
    const record = JSON.parse(readFileSync(join(proxy.stateDir, 'proxy.json'), 'utf8'));
    expect(record).toMatchObject({ url: proxy.url, pid: process.pid });
    const ledger = readFileSync(join(proxy.stateDir, 'ledger.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(ledger.filter((line) => line.verdict === 'folded').length).toBeGreaterThanOrEqual(3);
    expect(readFileSync(join(proxy.stateDir, 'ledger.jsonl'), 'utf8')).not.toContain('sk-test');
    const sessions = await (await fetch(`${proxy.url}/warpfold/sessions`)).json();
    expect(sessions.sessions.length).toBeGreaterThanOrEqual(1);
  });

  it('serves the openai SDK: Responses streams and chat completions', async () => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const body = codexBody(10);
    const stream = await client.responses.create({
      ...(body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming),
      stream: true,
    });
    let completed = false;
    for await (const event of stream) if (event.type === 'response.completed') completed = true;
    expect(completed).toBe(true);
    const chat = await client.chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(chat.choices[0].message.content).toMatch(/^ok/);
  });

  it('streams unbuffered, and a client that goes away mid-stream aborts the upstream call', async () => {
    upstream.holdStream = true;
    try {
      const before = upstream.aborted;
      const controller = new AbortController();
      const response = await fetch(`${proxy.url}/v1/messages`, {
        method: 'POST',
        headers: CLAUDE_HEADERS,
        body: JSON.stringify(claudeCodeBody(3, 'cccccccc-0003')),
        signal: controller.signal,
      });
      expect(response.headers.get('x-warpfold-verdict')).toBe('passthrough; reason=under-ceiling');
      const reader = response.body?.getReader();
      const first = await reader?.read();
      // the first events arrived while the upstream still holds its stream open
      expect(new TextDecoder().decode(first?.value)).toContain('message_start');
      controller.abort();
      const deadline = Date.now() + 5_000;
      while (upstream.aborted === before && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(upstream.aborted).toBeGreaterThan(before);
    } finally {
      upstream.holdStream = false;
    }
  });

  it('two clients at once keep their sessions apart', async () => {
    const run = async (id: string) => {
      const verdicts: string[] = [];
      for (let call = 8; call <= 12; call++) {
        const response = await fetch(`${proxy.url}/v1/messages`, {
          method: 'POST',
          headers: CLAUDE_HEADERS,
          body: JSON.stringify(claudeCodeBody(call, id)),
        });
        await response.text();
        verdicts.push(response.headers.get('x-warpfold-verdict') ?? '');
      }
      return verdicts;
    };
    const [a, b] = await Promise.all([run('aaaaaaaa-0001'), run('bbbbbbbb-0002')]);
    expect(a.filter((verdict) => verdict === 'folded').length).toBeGreaterThan(2);
    expect(b.filter((verdict) => verdict === 'folded').length).toBeGreaterThan(2);
    await proxy.gateway.idle();
    const sessions = (await (await fetch(`${proxy.url}/warpfold/sessions`)).json()).sessions as Array<{
      session: string;
    }>;
    expect(sessions.some((entry) => entry.session.includes('aaaaaaaa-0001'))).toBe(true);
    expect(sessions.some((entry) => entry.session.includes('bbbbbbbb-0002'))).toBe(true);
  });

  it('a WebSocket upgrade on /v1/responses is answered 426 at once', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${proxy.url}/v1/responses`);
      const outgoing = request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      outgoing.on('response', (response) => resolve(response.statusCode ?? 0));
      outgoing.on('upgrade', () => resolve(101));
      outgoing.on('error', reject);
      outgoing.end();
    });
    expect(status).toBe(426);
  });

  it('refuses a non-loopback host without a token', async () => {
    await expect(startProxy({ host: '0.0.0.0', stateDir: join(root, 'other') })).rejects.toThrow(/token/);
    expect(existsSync(join(root, 'other', 'proxy.json'))).toBe(false);
  });
});
