import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gatewaySessionObjectName, tenantObjectName } from '../../worker/durable-object-names.ts';
import type { WorkerBindings } from '../../worker/worker-bindings.ts';
import { CLAUDE_HEADERS, claudeCodeBody, codexBody } from '../helpers/agent-requests.ts';
import { callWith, freshId, tokenFor } from './worker-client.ts';

const bindings = env as unknown as WorkerBindings;
const UPSTREAMS = {
  ANTHROPIC_UPSTREAM: 'http://anthropic.upstream.test',
  OPENAI_UPSTREAM: 'http://openai.upstream.test/v1',
  GEMINI_UPSTREAM: 'http://gemini.upstream.test',
};
/** The provider key the client sends: it must reach the provider and nothing else. */
const PROVIDER_KEY = 'sk-ant-provider-key-never-stored-4711';

interface Forwarded {
  readonly url: string;
  readonly headers: Headers;
  readonly text: string;
}

let forwarded: Forwarded[] = [];
let answer: (request: Request) => Response = () => anthropicStream(1200);

/** An Anthropic SSE answer whose usage says what the provider billed. */
function anthropicStream(input: number): Response {
  const events = [
    `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: input, cache_read_input_tokens: 100, cache_creation_input_tokens: 10, output_tokens: 1 } } })}\n\n`,
    `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } })}\n\n`,
    `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', usage: { output_tokens: 5 } })}\n\n`,
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  ];
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(event));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

beforeEach(() => {
  forwarded = [];
  answer = () => anthropicStream(1200);
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    forwarded.push({ url: request.url, headers: request.headers, text: await request.clone().text() });
    return answer(request);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function gatewayRequest(
  path: string,
  body: unknown,
  headers: Record<string, string | null> = {},
  method = 'POST',
): Request {
  const all: Record<string, string> = { ...CLAUDE_HEADERS, 'x-api-key': PROVIDER_KEY };
  const token = headers['x-warpfold-token'] === undefined ? tokenFor('tenant-a') : headers['x-warpfold-token'];
  if (token !== null) all['x-warpfold-token'] = token;
  for (const [name, value] of Object.entries(headers))
    if (value !== null && name !== 'x-warpfold-token') all[name] = value;
  return new Request(`https://warpfold.test${path}`, {
    method,
    headers: all,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

const send = (request: Request, vars: Record<string, string> = {}) => callWith({ ...UPSTREAMS, ...vars }, request);

/** Every text a Durable Object's SQLite holds, to search for what must not be there. */
async function storedText(stub: DurableObjectStub): Promise<string> {
  return runInDurableObject(stub, (_object, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
      )
      .toArray();
    return tables
      .map((table) => JSON.stringify(state.storage.sql.exec(`SELECT * FROM "${table.name}"`).toArray()))
      .join('\n');
  });
}

describe('gateway auth', () => {
  it('answers 401 with a verdict and forwards nothing without a token, with a wrong one, or with the token only where the provider key goes', async () => {
    const body = claudeCodeBody(2);
    const cases: Array<Record<string, string | null>> = [
      { 'x-warpfold-token': null },
      { 'x-warpfold-token': 'not-a-valid-token-0123456789abcdef' },
      { 'x-warpfold-token': null, 'x-api-key': tokenFor('tenant-a') },
      { 'x-warpfold-token': null, authorization: `Bearer ${tokenFor('tenant-a')}` },
    ];
    for (const headers of cases) {
      const response = await send(gatewayRequest('/anthropic/v1/messages', body, headers));
      expect(response.status).toBe(401);
      expect(response.headers.get('x-warpfold-verdict')).toBe('passthrough; reason=unauthorized');
      expect((await response.json()) as Record<string, any>).toMatchObject({ type: 'error' });
    }
    // the token in the URL is no token either
    const inUrl = await send(
      gatewayRequest(`/anthropic/v1/messages?x-warpfold-token=${tokenFor('tenant-a')}`, body, {
        'x-warpfold-token': null,
      }),
    );
    expect(inUrl.status).toBe(401);
    expect(forwarded).toEqual([]);
  });

  it('refuses a read-only token on provider routes (403) but lets it read the ledger', async () => {
    const readOnly = tokenFor('tenant-a', true);
    const refused = await send(
      gatewayRequest('/anthropic/v1/messages', claudeCodeBody(2), { 'x-warpfold-token': readOnly }),
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-warpfold-verdict')).toBe('passthrough; reason=forbidden');
    expect(forwarded).toEqual([]);
    const ledger = await send(gatewayRequest('/warpfold/sessions', undefined, { 'x-warpfold-token': readOnly }, 'GET'));
    expect(ledger.status).toBe(200);
  });

  it('keeps Authorization: Bearer on the other routes: x-warpfold-token opens nothing there', async () => {
    const response = await send(
      new Request('https://warpfold.test/v1/sessions/x', { headers: { 'x-warpfold-token': tokenFor('tenant-a') } }),
    );
    expect(response.status).toBe(401);
  });
});

describe('gateway routes', () => {
  it('forwards a short Anthropic call as it came to ANTHROPIC_UPSTREAM, query and provider key included, without the gateway token', async () => {
    const body = JSON.stringify(claudeCodeBody(2, freshId('short')));
    const response = await send(gatewayRequest('/anthropic/v1/messages?beta=true', body));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-warpfold-verdict')).toBe('passthrough; reason=under-ceiling');
    await response.text();
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0].url).toBe('http://anthropic.upstream.test/v1/messages?beta=true');
    expect(forwarded[0].text).toBe(body);
    expect(forwarded[0].headers.get('x-api-key')).toBe(PROVIDER_KEY);
    expect(forwarded[0].headers.get('anthropic-beta')).toBe(CLAUDE_HEADERS['anthropic-beta']);
    expect(forwarded[0].headers.get('x-warpfold-token')).toBeNull();
  });

  it('folds a long session under x-warpfold-ceiling, streams the answer through, and feeds the usage to the session object', async () => {
    const sessionId = freshId('long');
    const response = await send(
      gatewayRequest('/anthropic/v1/messages?beta=true', claudeCodeBody(30, sessionId), {
        'x-warpfold-ceiling': '12000',
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-warpfold-verdict')).toBe('folded');
    const streamed = await response.text();
    expect(streamed).toContain('message_stop');
    const sent = JSON.parse(forwarded[0].text);
    const raw = claudeCodeBody(30, sessionId);
    expect(sent.messages.length).toBeLessThan((raw.messages as unknown[]).length);
    expect(sent.system).toEqual(raw.system);
    expect(sent.tools).toEqual(raw.tools);
    const sessions = (await (await send(gatewayRequest('/warpfold/sessions', undefined, {}, 'GET'))).json()) as Record<
      string,
      any
    >;
    const mine = sessions.sessions.find((entry: Record<string, any>) => String(entry.session).includes(sessionId));
    expect(mine).toMatchObject({ calls: 1, folded: 1, inputTokens: 1200, cacheReadTokens: 100 });
    const lines = (await (
      await send(gatewayRequest(`/warpfold/sessions/${encodeURIComponent(mine.session)}`, undefined, {}, 'GET'))
    ).json()) as Record<string, any>;
    expect(lines.lines[0]).toMatchObject({ verdict: 'folded', ceiling: 12000, ceilingSource: 'header' });
    expect(lines.lines[0].forwardedTokens).toBeLessThanOrEqual(12000);
    // the session object is warm after its call: its last raw history, to its own tenant only
    const historyPath = `/warpfold/sessions/${encodeURIComponent(mine.session)}/history`;
    const history = await send(gatewayRequest(historyPath, undefined, {}, 'GET'));
    expect(history.status).toBe(200);
    const served = (await history.json()) as Record<string, any>;
    expect(served).toMatchObject({ session: mine.session, api: 'anthropic', ceiling: 12000, model: raw.model });
    expect(served.messages).toEqual(raw.messages);
    const otherTenant = await send(
      gatewayRequest(historyPath, undefined, { 'x-warpfold-token': tokenFor('tenant-b') }, 'GET'),
    );
    expect(otherTenant.status).toBe(404);
    expect(((await otherTenant.json()) as Record<string, any>).error.type).toBe('unknown-session');
    // the provider key is in neither the session's object nor the tenant's
    const sessionText = await storedText(
      bindings.GATEWAY_SESSIONS.getByName(gatewaySessionObjectName('tenant-a', mine.session)),
    );
    expect(sessionText).toContain('warpfold-gateway-session');
    expect(sessionText).not.toContain(PROVIDER_KEY);
    const tenantText = await storedText(bindings.TENANTS.getByName(tenantObjectName('tenant-a')));
    expect(tenantText).toContain(mine.session);
    expect(tenantText).not.toContain(PROVIDER_KEY);
    expect(tenantText).not.toContain(tokenFor('tenant-a'));
  });

  it('ceiling: GATEWAY_CEILING_TOKENS, else the model budget, else DEFAULT_BUDGET_MODEL', async () => {
    const configured = await send(gatewayRequest('/anthropic/v1/messages', claudeCodeBody(30, freshId('var'))), {
      GATEWAY_CEILING_TOKENS: '15000',
    });
    expect(configured.headers.get('x-warpfold-verdict')).toBe('folded');
    await configured.text();
    const unknownModel = { ...claudeCodeBody(3, freshId('model')), model: 'no-such-model' };
    const fallback = await send(gatewayRequest('/anthropic/v1/messages', unknownModel));
    await fallback.text();
    const ledger = (await (await send(gatewayRequest('/warpfold/sessions', undefined, {}, 'GET'))).json()) as Record<
      string,
      any
    >;
    expect(ledger.sessions.length).toBeGreaterThan(0);
    const lines = await runInDurableObject(bindings.TENANTS.getByName(tenantObjectName('tenant-a')), (object) =>
      (object as unknown as { ledgerLines(): Array<Record<string, any>> }).ledgerLines(),
    );
    const last = lines.slice(-2);
    expect(last[0]).toMatchObject({ ceiling: 15000, ceilingSource: 'flag' });
    // gpt-4o's budget (DEFAULT_BUDGET_MODEL) for a model warpfold/budget does not know
    expect(last[1].ceilingSource).toBe('model');
    expect(last[1].ceiling).toBeLessThan(128_000);
  });

  it('serves OpenAI Responses and Chat Completions, and Gemini by path model, each to its own upstream', async () => {
    answer = () =>
      new Response('{"usage":{"input_tokens":10,"output_tokens":2}}', {
        headers: { 'content-type': 'application/json' },
      });
    const responses = await send(
      gatewayRequest('/openai/v1/responses', codexBody(2), { 'session-id': freshId('codex') }),
    );
    expect(responses.status).toBe(200);
    await responses.text();
    const chat = await send(
      gatewayRequest('/openai/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    );
    await chat.text();
    const gemini = await send(
      gatewayRequest('/gemini/v1beta/models/gemini-2.5-pro:generateContent', {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      }),
    );
    await gemini.text();
    expect(forwarded.map((entry) => entry.url)).toEqual([
      'http://openai.upstream.test/v1/responses',
      'http://openai.upstream.test/v1/chat/completions',
      'http://gemini.upstream.test/v1beta/models/gemini-2.5-pro:generateContent',
    ]);
    for (const response of [responses, chat, gemini])
      expect(response.headers.get('x-warpfold-verdict')).toMatch(/^passthrough; reason=under-ceiling$/);
  });

  it('answers a WebSocket upgrade on /openai/v1/responses with 426', async () => {
    const response = await send(gatewayRequest('/openai/v1/responses', undefined, { upgrade: 'websocket' }, 'GET'));
    expect(response.status).toBe(426);
    expect(forwarded).toEqual([]);
  });

  it('count_tokens goes out with the session view, never a new fold', async () => {
    const sessionId = freshId('count');
    const first = await send(
      gatewayRequest('/anthropic/v1/messages', claudeCodeBody(30, sessionId), { 'x-warpfold-ceiling': '12000' }),
    );
    await first.text();
    answer = () => new Response('{"input_tokens":42}', { headers: { 'content-type': 'application/json' } });
    const counted = await send(
      gatewayRequest('/anthropic/v1/messages/count_tokens', claudeCodeBody(30, sessionId), {
        'x-warpfold-ceiling': '12000',
      }),
    );
    expect(counted.headers.get('x-warpfold-verdict')).toBe('folded');
    expect(JSON.parse(forwarded[1].text).messages.map(stripMarks)).toEqual(
      JSON.parse(forwarded[0].text).messages.map(stripMarks),
    );
  });
});

/** The messages without cache marks: count_tokens keeps the client's, the Messages call placed its own. */
function stripMarks(message: Record<string, any>): Record<string, any> {
  if (!Array.isArray(message.content)) return message;
  return {
    ...message,
    content: message.content.map(({ cache_control: _mark, ...block }: Record<string, any>) => block),
  };
}

describe('gateway limits', () => {
  it('answers 413 with a verdict past GATEWAY_MAX_BODY_BYTES, forwarding nothing', async () => {
    const response = await send(gatewayRequest('/anthropic/v1/messages', claudeCodeBody(10)), {
      GATEWAY_MAX_BODY_BYTES: '50000',
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('x-warpfold-verdict')).toBe('passthrough; reason=body-too-large');
    expect(forwarded).toEqual([]);
  });

  it('answers 429 with a verdict past the tenant rate limit', async () => {
    const token = tokenFor('tenant-limited');
    const statuses: number[] = [];
    for (let index = 0; index < 3; index++) {
      const response = await send(
        gatewayRequest('/anthropic/v1/messages', claudeCodeBody(2), { 'x-warpfold-token': token }),
        { RATE_LIMIT_REQUESTS: '2' },
      );
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get('x-warpfold-verdict')).toBe('passthrough; reason=rate-limited');
        expect(response.headers.get('retry-after')).not.toBeNull();
      }
      await response.text();
    }
    expect(statuses).toContain(429);
  });

  it('refuses a body nested deeper than a message may be (400 with a verdict)', async () => {
    let deep = '"x"';
    for (let level = 0; level < 600; level++) deep = `[${deep}]`;
    const text = `{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":${deep}}]}`;
    const response = await send(gatewayRequest('/anthropic/v1/messages', text));
    expect(response.status).toBe(400);
    expect(response.headers.get('x-warpfold-verdict')).toBe('passthrough; reason=too-deep');
    expect(forwarded).toEqual([]);
  });

  it('past MAX_SESSION_MESSAGES folds statelessly and forwards, with the verdict saying so', async () => {
    const response = await send(
      gatewayRequest('/anthropic/v1/messages', claudeCodeBody(30, freshId('limit')), { 'x-warpfold-ceiling': '12000' }),
      { MAX_SESSION_MESSAGES: '20' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-warpfold-verdict')).toBe('folded; reason=session-limit-messages');
    await response.text();
    expect(forwarded).toHaveLength(1);
    expect(JSON.parse(forwarded[0].text).messages.length).toBeLessThan(59);
  });
});

describe('gateway ledger', () => {
  it('is scoped to the tenant: another tenant sees none of its sessions and cannot read one by id', async () => {
    const sessionId = freshId('scoped');
    const folded = await send(
      gatewayRequest('/anthropic/v1/messages', claudeCodeBody(30, sessionId), { 'x-warpfold-ceiling': '12000' }),
    );
    await folded.text();
    const mine = (await (await send(gatewayRequest('/warpfold/sessions', undefined, {}, 'GET'))).json()) as Record<
      string,
      any
    >;
    const id = mine.sessions.find((entry: Record<string, any>) => String(entry.session).includes(sessionId)).session;
    const other = { 'x-warpfold-token': tokenFor('tenant-b') };
    const theirs = (await (await send(gatewayRequest('/warpfold/sessions', undefined, other, 'GET'))).json()) as Record<
      string,
      any
    >;
    expect(JSON.stringify(theirs)).not.toContain(sessionId);
    const byId = await send(gatewayRequest(`/warpfold/sessions/${encodeURIComponent(id)}`, undefined, other, 'GET'));
    expect(byId.status).toBe(404);
  });
});
