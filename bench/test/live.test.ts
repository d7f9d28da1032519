import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveTable, providerFromEnvironment, runLive } from '../live.ts';

interface Received {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

/** A stand-in provider on 127.0.0.1 answering in the Anthropic and OpenAI response shapes. */
function fakeProvider(received: Received[]): Server {
  let calls = 0;
  return createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      received.push({ path: request.url ?? '', headers: request.headers, body });
      calls++;
      const size = raw.length >> 2;
      const cached = calls % 4 === 1 ? 0 : Math.floor(size * 0.8);
      const answer =
        request.url === '/v1/messages'
          ? {
              id: `msg_${calls}`,
              type: 'message',
              role: 'assistant',
              model: body.model,
              content: [{ type: 'text', text: 'ok' }],
              stop_reason: 'max_tokens',
              usage: {
                input_tokens: size - cached - 10,
                cache_creation_input_tokens: 10,
                cache_read_input_tokens: cached,
                output_tokens: 16,
              },
            }
          : {
              id: `chatcmpl-${calls}`,
              object: 'chat.completion',
              model: body.model,
              choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'length' }],
              usage: {
                prompt_tokens: size,
                completion_tokens: 16,
                total_tokens: size + 16,
                prompt_tokens_details: { cached_tokens: cached },
              },
            };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
}

describe('live bench against a local provider', () => {
  const received: Received[] = [];
  const server = fakeProvider(received);
  let baseUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends Anthropic requests with a cache breakpoint and records the cache telemetry', async () => {
    received.length = 0;
    const report = await runLive({
      provider: 'anthropic',
      apiKey: 'test-key',
      baseUrl,
      model: 'claude-sonnet-4-5',
      strategies: ['raw', 'truncate'],
    });
    expect(received).toHaveLength(32);
    expect(received[0].path).toBe('/v1/messages');
    expect(received[0].headers['x-api-key']).toBe('test-key');
    expect(received[0].headers['anthropic-version']).toBe('2023-06-01');
    const messages = received[5].body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    expect(messages[messages.length - 1].content.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(received[0].body.system).toContain('on-call SRE agent');
    const raw = report.runs[0];
    expect(raw.calls).toHaveLength(16);
    expect(raw.cacheReadTokens).toBeGreaterThan(0);
    expect(raw.cacheWriteTokens).toBe(160);
    expect(raw.calls[1].totalInputTokens).toBe(
      raw.calls[1].inputTokens + raw.calls[1].cacheReadTokens + raw.calls[1].cacheWriteTokens,
    );
    expect(raw.cost).toBeGreaterThan(0);
    expect(liveTable(report)).toContain('| raw | 16 |');
  });

  it('sends OpenAI requests and reads prompt_tokens_details.cached_tokens', async () => {
    received.length = 0;
    const report = await runLive({
      provider: 'openai',
      apiKey: 'sk-test',
      baseUrl,
      model: 'gpt-4.1-mini',
      strategies: ['truncate'],
    });
    expect(received[0].path).toBe('/v1/chat/completions');
    expect(received[0].headers.authorization).toBe('Bearer sk-test');
    expect((received[0].body.messages as Array<{ role: string }>)[0].role).toBe('system');
    expect(received[0].body.tools).toHaveLength(5);
    const run = report.runs[0];
    expect(run.cacheWriteTokens).toBe(0);
    expect(run.cacheReadTokens).toBe(run.calls.reduce((sum, call) => sum + call.cacheReadTokens, 0));
  });

  it('finds keys and base URLs in the environment, Anthropic first', () => {
    expect(providerFromEnvironment({})).toBeNull();
    expect(providerFromEnvironment({ OPENAI_API_KEY: 'o', OPENAI_BASE_URL: 'http://127.0.0.1:1' })).toEqual({
      provider: 'openai',
      apiKey: 'o',
      baseUrl: 'http://127.0.0.1:1',
    });
    expect(providerFromEnvironment({ OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' })?.provider).toBe('anthropic');
  });

  it('exits 0 and says so when no key is set', async () => {
    const environment = { ...process.env };
    delete environment.ANTHROPIC_API_KEY;
    delete environment.OPENAI_API_KEY;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/live.ts'], {
      env: environment,
    });
    expect(stdout).toMatch(/live bench skipped: no ANTHROPIC_API_KEY or OPENAI_API_KEY/);
  });
});
