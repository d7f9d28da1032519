import { describe, expect, it } from 'vitest';
import { createGateway, type GatewayOptions, memoryLedger } from '../../src/gateway/index.ts';
import { createMemoryStore } from '../../src/storage/memory.ts';
import { CLAUDE_HEADERS, claudeCodeBody, codexBody, toolOutput } from '../helpers/agent-requests.ts';
import { ScriptedUpstream } from '../helpers/scripted-upstream.ts';

const ORIGIN = 'http://127.0.0.1:9';

function setup(options: Partial<GatewayOptions> = {}) {
  const upstream = new ScriptedUpstream();
  const ledger = memoryLedger();
  const records = new Map<string, string>();
  const gateway = createGateway({
    storage: createMemoryStore({ records }),
    fetch: upstream.fetch,
    ceiling: 40_000,
    ledger,
    now: () => 1_700_000_000_000,
    ...options,
  });
  return { upstream, ledger, gateway, records };
}

async function post(
  gateway: ReturnType<typeof setup>['gateway'],
  path: string,
  body: BodyInit,
  headers: Record<string, string> = CLAUDE_HEADERS,
) {
  const response = await gateway.handle(new Request(`${ORIGIN}${path}`, { method: 'POST', headers, body }));
  const text = await response.text();
  await gateway.idle();
  return { response, text, verdict: response.headers.get('x-warpfold-verdict') };
}

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe('gateway requests', () => {
  it('shadow mode forwards the exact bytes and headers, and the ledger says what folding would have sent', async () => {
    const { upstream, gateway, ledger } = setup({ shadow: true });
    for (let call = 1; call <= 12; call++) {
      const text = JSON.stringify(claudeCodeBody(call), null, call % 2 === 0 ? 1 : undefined);
      const { verdict } = await post(gateway, '/v1/messages?beta=true', text);
      expect(upstream.calls.at(-1)?.text).toBe(text);
      expect(verdict?.startsWith('shadow')).toBe(true);
    }
    const lines = await ledger.lines();
    const folded = lines.filter((line) => line.verdict === 'shadow' && line.reason === undefined);
    expect(folded.length).toBeGreaterThan(3);
    for (const line of folded) expect(line.forwardedTokens).toBeLessThan(line.rawTokens as number);
  });

  it('reads gzip bodies and folds them; a body it cannot decode or read goes on as sent, with its reason', async () => {
    const { upstream, gateway } = setup();
    const text = JSON.stringify(claudeCodeBody(12));
    const zipped = await gzip(text);
    const { verdict } = await post(gateway, '/v1/messages', zipped as BodyInit, {
      ...CLAUDE_HEADERS,
      'content-encoding': 'gzip',
    });
    expect(verdict).toBe('folded');
    const sent = upstream.calls.at(-1);
    expect(sent?.headers.get('content-encoding')).toBeNull();
    expect(sent?.text.length).toBeLessThan(text.length);

    const unknown = await post(gateway, '/v1/messages', zipped as BodyInit, {
      ...CLAUDE_HEADERS,
      'content-encoding': 'compress',
    });
    expect(unknown.verdict).toBe('passthrough; reason=unsupported-encoding-compress');
    expect(upstream.calls.at(-1)?.headers.get('content-encoding')).toBe('compress');

    const malformed = await post(gateway, '/v1/messages', '{"messages": [');
    expect(malformed.verdict).toBe('passthrough; reason=malformed-json');
    expect(upstream.calls.at(-1)?.text).toBe('{"messages": [');
  });

  it('a gzip answer reaches the client as it came, and its usage is still read', async () => {
    const upstream = new ScriptedUpstream();
    const ledger = memoryLedger();
    const gateway = createGateway({
      storage: createMemoryStore(),
      ceiling: 40_000,
      ledger,
      fetch: async (request) => {
        const answer = await upstream.fetch(request);
        const zipped = answer.body?.pipeThrough(new CompressionStream('gzip'));
        return new Response(zipped, {
          status: answer.status,
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        });
      },
    });
    const body = { ...claudeCodeBody(12), stream: false };
    const response = await gateway.handle(
      new Request(`${ORIGIN}/v1/messages`, { method: 'POST', headers: CLAUDE_HEADERS, body: JSON.stringify(body) }),
    );
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const text = await new Response(response.body?.pipeThrough(new DecompressionStream('gzip'))).text();
    expect(JSON.parse(text).usage.cache_creation_input_tokens).toBeGreaterThan(0);
    await gateway.idle();
    for (let wait = 0; wait < 50 && (await ledger.lines()).length === 0; wait++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await ledger.lines())[0].cacheWriteTokens).toBeGreaterThan(0);
  });

  it('a body past the size limit is forwarded unread', async () => {
    const { upstream, gateway } = setup({ maxBodyBytes: 100_000 });
    const text = JSON.stringify(claudeCodeBody(12));
    const { verdict } = await post(gateway, '/v1/messages', text);
    expect(verdict).toBe('passthrough; reason=body-too-large');
    expect(upstream.calls.at(-1)?.text).toBe(text);
  });

  it.each([
    [429, '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}'],
    [500, '{"type":"error","error":{"type":"api_error","message":"boom"}}'],
    [529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'],
  ])('an upstream %i reaches the client with its status and body', async (status, body) => {
    const { upstream, gateway, ledger } = setup();
    upstream.fail(status, body);
    const answer = await post(gateway, '/v1/messages', JSON.stringify(claudeCodeBody(12)));
    expect(answer.response.status).toBe(status);
    expect(answer.text).toBe(body);
    expect(answer.verdict).toBe('folded');
    expect((await ledger.lines()).at(-1)?.status).toBe(status);
  });

  it('an unreachable upstream is a 502 with the verdict, never a dropped connection', async () => {
    const { gateway } = setup({
      fetch: async () => {
        throw new TypeError('connect ECONNREFUSED');
      },
    });
    const answer = await post(gateway, '/v1/messages', JSON.stringify(claudeCodeBody(2)));
    expect(answer.response.status).toBe(502);
    expect(answer.verdict).toBe('passthrough; reason=under-ceiling');
  });

  it('when the gateway fails inside (storage down), the request goes on unchanged with the reason', async () => {
    const storage = createMemoryStore();
    const broken = {
      ...storage,
      sessions: {
        ...storage.sessions,
        save: async () => {
          throw new Error('disk full');
        },
      },
    };
    const errors: unknown[] = [];
    const { upstream, gateway } = setup({ storage: broken, onError: (error) => errors.push(error) });
    const text = JSON.stringify(claudeCodeBody(12));
    const { verdict, response } = await post(gateway, '/v1/messages', text);
    expect(response.status).toBe(200);
    expect(verdict).toBe('passthrough; reason=gateway-error');
    expect(upstream.calls.at(-1)?.text).toBe(text);
    expect(errors).toHaveLength(1);
  });

  it('Codex over Responses: encrypted reasoning items in view are untouched, a prompt_cache_key is added, usage is read', async () => {
    // each live output (up to 729 lines, about 21,000 tokens) fits in half the engine's ceiling: shown whole
    const { upstream, gateway, ledger } = setup({ ceiling: 60_000 });
    const headers = { 'content-type': 'application/json', authorization: 'Bearer sk-test', 'session-id': 'codex-1' };
    for (let call = 8; call <= 14; call++) {
      const text = JSON.stringify(codexBody(call));
      const { verdict, text: answer } = await post(gateway, '/v1/responses', text, headers);
      expect(answer).toContain('response.completed');
      expect(verdict).toBe('folded');
      const sent = upstream.calls.at(-1)?.body as { input: Array<Record<string, unknown>>; prompt_cache_key: string };
      expect(sent.prompt_cache_key).toMatch(/^warpfold-/);
      for (const item of sent.input) if (item.type === 'reasoning') expect(text).toContain(JSON.stringify(item));
      expect(JSON.stringify(sent.input.at(-1))).toBe(JSON.stringify((JSON.parse(text).input as unknown[]).at(-1)));
      expect(upstream.calls.at(-1)?.headers.get('authorization')).toBe('Bearer sk-test');
    }
    const last = (await ledger.lines()).at(-1);
    expect(last?.session).toMatch(/^openai-responses:codex-1:/);
    expect(last?.inputTokens).toBeGreaterThan(0);
  });

  it('a client prompt_cache_key is kept, never replaced', async () => {
    const { upstream, gateway } = setup();
    const body = { ...codexBody(12), prompt_cache_key: 'client-key' };
    await post(gateway, '/v1/responses', JSON.stringify(body), { 'content-type': 'application/json' });
    expect(upstream.calls.at(-1)?.body?.prompt_cache_key).toBe('client-key');
  });

  it('Gemini: streamGenerateContent folds contents keyed by their prefix, usageMetadata is read', async () => {
    const { upstream, gateway, ledger } = setup();
    const contents = (calls: number) => {
      const list: unknown[] = [{ role: 'user', parts: [{ text: 'This is the Gemini CLI. List every module.' }] }];
      for (let step = 1; step < calls; step++) {
        list.push({
          role: 'model',
          parts: [
            {
              functionCall: { name: 'run_shell_command', args: { command: `cat src/${step}.ts` } },
              thoughtSignature: `sig${step}`,
            },
          ],
        });
        list.push({
          role: 'user',
          parts: [{ functionResponse: { name: 'run_shell_command', response: { output: toolOutput(step) } } }],
        });
      }
      return list;
    };
    for (let call = 6; call <= 10; call++) {
      const text = JSON.stringify({
        contents: contents(call),
        systemInstruction: { parts: [{ text: 'You are Gemini.' }] },
      });
      const { verdict, text: answer } = await post(
        gateway,
        '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
        text,
        { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
      );
      expect(answer).toContain('usageMetadata');
      if (call > 6) expect(verdict).toBe('folded');
      expect(upstream.calls.at(-1)?.path).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
      const sent = upstream.calls.at(-1)?.body as {
        systemInstruction: unknown;
        contents: Array<{ parts: Array<Record<string, unknown>> }>;
      };
      expect(JSON.stringify(sent.systemInstruction)).toBe('{"parts":[{"text":"You are Gemini."}]}');
      // a signed part in the view is the client's, byte for byte
      const signed = sent.contents.flatMap((content) => content.parts.filter((part) => 'thoughtSignature' in part));
      expect(signed.length).toBeGreaterThan(0);
      for (const part of signed) expect(text).toContain(JSON.stringify(part));
    }
    const sessions = new Set((await ledger.lines()).map((line) => line.session).filter(Boolean));
    expect(sessions.size).toBe(1);
  });

  it('a small call (a router call) passes through and starts no session', async () => {
    const { upstream, gateway, records } = setup();
    const text = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'route me' }] }] });
    const { verdict } = await post(gateway, '/v1beta/models/gemini-2.5-flash:generateContent', text, {
      'content-type': 'application/json',
    });
    expect(verdict).toBe('passthrough; reason=under-ceiling');
    expect(upstream.calls.at(-1)?.text).toBe(text);
    expect([...records.keys()].filter((key) => key.startsWith('session/'))).toEqual([]);
  });

  it('OpenAI chat completions fold, system messages stay', async () => {
    const { upstream, gateway } = setup();
    const messages: unknown[] = [
      { role: 'system', content: 'You are a careful agent.' },
      { role: 'user', content: 'Summarize every module.' },
    ];
    for (let step = 1; step < 14; step++) {
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `c${step}`, type: 'function', function: { name: 'cat', arguments: `{"path":"src/${step}.ts"}` } },
        ],
      });
      messages.push({ role: 'tool', tool_call_id: `c${step}`, content: 'y'.repeat(16_000) + step });
    }
    const { verdict } = await post(
      gateway,
      '/v1/chat/completions',
      JSON.stringify({ model: 'gpt-4.1', messages, stream: true }),
      {
        'content-type': 'application/json',
      },
    );
    expect(verdict).toBe('folded');
    const sent = upstream.calls.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(sent.messages[0]).toEqual(messages[0]);
  });

  it('count_tokens goes out with the session current view, never a new fold', async () => {
    const { upstream, gateway } = setup();
    await post(gateway, '/v1/messages', JSON.stringify(claudeCodeBody(12)));
    const folded = upstream.calls.at(-1)?.body as { messages: unknown[] };
    const count = claudeCodeBody(12);
    const { verdict } = await post(
      gateway,
      '/v1/messages/count_tokens?beta=true',
      JSON.stringify({ model: count.model, messages: count.messages, system: count.system, metadata: count.metadata }),
    );
    expect(verdict).toBe('folded');
    const sent = upstream.calls.at(-1)?.body as { messages: unknown[] };
    expect(sent.messages.length).toBe(folded.messages.length);
    const unknown = await post(
      gateway,
      '/v1/messages/count_tokens',
      JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(unknown.verdict).toBe('passthrough; reason=no-current-view');
  });

  it('a restarted gateway over the same storage sends the very bytes the first one would have', async () => {
    const first = setup();
    const twin = setup();
    for (let call = 8; call <= 13; call++) {
      await post(first.gateway, '/v1/messages', JSON.stringify(claudeCodeBody(call)));
      await post(twin.gateway, '/v1/messages', JSON.stringify(claudeCodeBody(call)));
    }
    // a new gateway over the first one's records, as after a SIGKILL and a restart
    const restarted = createGateway({
      storage: createMemoryStore({ records: first.records }),
      fetch: first.upstream.fetch,
      ceiling: 40_000,
      now: () => 1_700_000_000_000,
    });
    for (let call = 14; call <= 18; call++) {
      await post(restarted, '/v1/messages', JSON.stringify(claudeCodeBody(call)));
      await post(twin.gateway, '/v1/messages', JSON.stringify(claudeCodeBody(call)));
      expect(first.upstream.calls.at(-1)?.text === twin.upstream.calls.at(-1)?.text, `call ${call}`).toBe(true);
    }
  });

  it('with at most one warm session, two interleaved sessions reload from storage and fold exactly as when warm', async () => {
    const cold = setup({ maxWarmSessions: 1 });
    const warm = setup();
    for (let call = 8; call <= 13; call++)
      for (const id of ['aaaaaaaa-1', 'bbbbbbbb-2']) {
        const text = JSON.stringify(claudeCodeBody(call, id));
        await post(cold.gateway, '/v1/messages', text);
        await post(warm.gateway, '/v1/messages', text);
        expect(cold.upstream.calls.at(-1)?.text === warm.upstream.calls.at(-1)?.text).toBe(true);
      }
    expect(cold.gateway.warmSessions).toBe(1);
  });

  it('routes: WebSocket upgrades get 426, other paths go on untouched, the ledger is served as JSON, tokens are checked', async () => {
    const { upstream, gateway } = setup({ token: 'secret' });
    const refused = await gateway.handle(
      new Request(`${ORIGIN}/v1/responses`, { headers: { upgrade: 'websocket', 'x-warpfold-token': 'secret' } }),
    );
    expect(refused.status).toBe(426);
    const models = await gateway.handle(
      new Request(`${ORIGIN}/v1/models`, { headers: { 'x-warpfold-token': 'secret', authorization: 'Bearer k' } }),
    );
    expect(models.status).toBe(200);
    expect(models.headers.get('x-warpfold-verdict')).toBe('passthrough; reason=not-a-fold-path');
    expect(upstream.calls.at(-1)?.headers.get('x-warpfold-token')).toBeNull();
    expect(upstream.calls.at(-1)?.headers.get('authorization')).toBe('Bearer k');
    const denied = await gateway.handle(new Request(`${ORIGIN}/v1/messages`, { method: 'POST', body: '{}' }));
    expect(denied.status).toBe(401);
    await post(gateway, '/v1/messages', JSON.stringify(claudeCodeBody(12)), {
      ...CLAUDE_HEADERS,
      'x-warpfold-token': 'secret',
    });
    const list = await (
      await gateway.handle(new Request(`${ORIGIN}/warpfold/sessions`, { headers: { 'x-warpfold-token': 'secret' } }))
    ).json();
    expect(list.sessions).toHaveLength(1);
    const id = list.sessions[0].session as string;
    const one = await (
      await gateway.handle(
        new Request(`${ORIGIN}/warpfold/sessions/${encodeURIComponent(id)}`, {
          headers: { 'x-warpfold-token': 'secret' },
        }),
      )
    ).json();
    expect(one.lines).toHaveLength(1);
    expect(one.lines[0].verdict).toBe('folded');
    expect(JSON.stringify(one)).not.toContain('sk-test');
  });
});
