import { describe, expect, it } from 'vitest';
import { createGateway, type GatewayOptions, memoryLedger, routeRequest } from '../../src/gateway/index.ts';
import { createMemoryStore } from '../../src/storage/memory.ts';
import { countTokens } from '../../src/tokens/count-tokens.ts';
import { CLAUDE_HEADERS, claudeCodeBody, codexBody } from '../helpers/agent-requests.ts';
import { ScriptedUpstream } from '../helpers/scripted-upstream.ts';

const ORIGIN = 'http://127.0.0.1:9';
const TOKEN = 'secret';
const CEILING = 40_000;

function setup(options: Partial<GatewayOptions> = {}) {
  const upstream = new ScriptedUpstream();
  const records = new Map<string, string>();
  const gateway = createGateway({
    storage: createMemoryStore({ records }),
    fetch: upstream.fetch,
    ceiling: CEILING,
    ledger: memoryLedger(),
    now: () => 1_700_000_000_000,
    token: TOKEN,
    countTokens,
    ...options,
  });
  return { upstream, gateway, records };
}

type Setup = ReturnType<typeof setup>;

async function post(gateway: Setup['gateway'], path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await gateway.handle(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { ...CLAUDE_HEADERS, 'x-warpfold-token': TOKEN, ...headers },
      body: JSON.stringify(body),
    }),
  );
  await response.text();
  await gateway.idle();
  return response.headers.get('x-warpfold-verdict');
}

/** `token` null: the request carries none. */
async function get(gateway: Setup['gateway'], path: string, token: string | null = TOKEN) {
  const response = await gateway.handle(
    new Request(`${ORIGIN}${path}`, { headers: token === null ? {} : { 'x-warpfold-token': token } }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function sessionIds(gateway: Setup['gateway']): Promise<string[]> {
  const list = await get(gateway, '/warpfold/sessions');
  return list.body.sessions.map((session: { session: string }) => session.session);
}

const historyPath = (id: string) => `/warpfold/sessions/${encodeURIComponent(id)}/history`;

describe('GET /warpfold/sessions/:id/history', () => {
  it("serves a warm session's last raw history with its ceiling and model, behind the token", async () => {
    const { gateway, records } = setup();
    const verdicts: Array<string | null> = [];
    for (let call = 10; call <= 13; call++) verdicts.push(await post(gateway, '/v1/messages', claudeCodeBody(call)));
    expect(verdicts.filter((verdict) => verdict === 'folded').length).toBeGreaterThan(0);
    const [id] = await sessionIds(gateway);
    const last = claudeCodeBody(13);

    const history = await get(gateway, historyPath(id));
    expect(history.status).toBe(200);
    expect(Object.keys(history.body)).toEqual([
      'session',
      'api',
      'ceiling',
      'engineCeiling',
      'model',
      'calls',
      'messages',
    ]);
    expect(history.body).toMatchObject({
      session: id,
      api: 'anthropic',
      ceiling: CEILING,
      model: last.model,
      calls: 4,
    });
    // the raw history, not the folded view: every message as the client sent it
    expect(history.body.messages).toEqual(last.messages);
    // the engine's ceiling: the ceiling less system and tools, counted as the gateway counts them
    const overhead = countTokens(JSON.stringify(last.system)) + countTokens(JSON.stringify(last.tools));
    expect(history.body.engineCeiling).toBe(CEILING - overhead);

    expect((await get(gateway, historyPath(id), null)).status).toBe(401);
    expect((await get(gateway, historyPath(id), 'wrong')).status).toBe(401);
    // served, never stored: the saved session holds the engine's state, not the client's messages
    const stored = [...records.values()].join('\n');
    expect(stored).toContain('warpfold-gateway-session');
    expect(stored).not.toContain(JSON.stringify((last.messages as Array<{ content: unknown }>)[24].content));
    expect(JSON.stringify(history.body)).not.toContain(CLAUDE_HEADERS['x-api-key']);
  });

  it('answers 404 saying why for a session that is not in memory, and for one never seen', async () => {
    const { gateway } = setup({ maxWarmSessions: 1 });
    await post(gateway, '/v1/messages', claudeCodeBody(12, 'session-one'));
    await post(gateway, '/v1/responses', codexBody(12), { 'session-id': 'codex-two' });
    const ids = await sessionIds(gateway);
    expect(ids).toHaveLength(2);
    const [claude, codex] = ids;

    // one warm session at most: the Codex call pushed the Claude session out of memory
    const cold = await get(gateway, historyPath(claude));
    expect(cold.status).toBe(404);
    expect(cold.body.error.type).toBe('not-warm');
    expect(cold.body.error.message).toContain('only while the session is warm');
    const warm = await get(gateway, historyPath(codex));
    expect(warm.status).toBe(200);
    expect(warm.body).toMatchObject({ api: 'openai-responses', model: codexBody(12).model });
    expect(warm.body.messages).toEqual(codexBody(12).input);

    // the next call reloads the session from storage and holds its history again
    await post(gateway, '/v1/messages', claudeCodeBody(13, 'session-one'));
    const back = await get(gateway, historyPath(claude));
    expect(back.status).toBe(200);
    expect(back.body.messages).toEqual(claudeCodeBody(13, 'session-one').messages);
    expect(back.body.calls).toBe(2);

    const unknown = await get(gateway, historyPath('anthropic:nobody:0'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({ type: 'unknown-session', message: 'no session anthropic:nobody:0' });
  });

  it('routes an id with an encoded slash: the last segment names the history, a %2F stays in the id', () => {
    const route = (path: string) => routeRequest('GET', new URL(`${ORIGIN}${path}`), new Headers());
    expect(route('/warpfold/sessions/a%2Fb/history')).toEqual({ kind: 'session-history', id: 'a/b' });
    expect(route('/warpfold/sessions/a%2Fhistory')).toEqual({ kind: 'sessions', id: 'a/history' });
    expect(route('/warpfold/sessions/a')).toEqual({ kind: 'sessions', id: 'a' });
    expect(routeRequest('POST', new URL(`${ORIGIN}/warpfold/sessions/a/history`), new Headers()).kind).toBe('forward');
  });
});
