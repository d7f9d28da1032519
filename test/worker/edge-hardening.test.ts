import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import type { FoldSessionObject } from '../../worker/fold-session-object.ts';
import { sessionObjectName } from '../../worker/durable-object-names.ts';
import { MAX_BODY_DEPTH } from '../../worker/json-shape.ts';
import type { WorkerBindings } from '../../worker/worker-bindings.ts';
import { call, callWith, freshId, json, realHistory, request, tokenFor, tokensFor } from './worker-client.ts';

/** `{"messages":[{"role":"user","content":"x","deep":[[[…]]]}]}`, the nesting `depth` arrays deep. */
function nestedBody(depth: number, extra: Record<string, unknown> = {}): string {
  const prefix = JSON.stringify({ ...extra, messages: [{ role: 'user', content: 'x', deep: '@' }] });
  return prefix.replace('"@"', `${'['.repeat(depth)}${']'.repeat(depth)}`);
}

const CLOCK = 1_760_000_000_000;

const liveOf = (tenant: string, id: string) =>
  runInDurableObject(
    (env as unknown as WorkerBindings).SESSIONS.getByName(sessionObjectName(tenant, id)),
    (instance: FoldSessionObject) => (instance as unknown as { live: unknown }).live,
  );

afterEach(() => vi.restoreAllMocks());

describe('depth and size at the edge', () => {
  it('answers 400 naming the message, never 500, for a body nested 5,000 deep on every route that takes one', async () => {
    const deep = nestedBody(5_000);
    expect(deep.length).toBeGreaterThan(10_000);
    const routes: Array<[string, string, string]> = [
      ['POST', `/v1/sessions/${freshId('deep')}/prepare`, deep],
      ['POST', '/v1/anthropic/prepare', nestedBody(5_000, { sessionId: freshId('deep-anthropic') })],
      ['POST', '/v1/anthropic/prepare', deep],
      ['POST', '/v1/fold', deep],
      ['POST', '/v1/episodes', nestedBody(5_000, { sessionId: 'deep' })],
      [
        'PUT',
        '/v1/rails/deep',
        `{"id":"deep","title":"t","revision":1,"steps":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
      ],
    ];
    for (const [method, path, body] of routes) {
      const response = await call(method, path, { body });
      expect(response.status, `${method} ${path}`).toBe(400);
      const error = (await json(response)).error;
      expect(error.code).toBe('invalid-request');
      expect(error.message).toMatch(/nested more than/);
      expect(error.field).toBe(path === '/v1/rails/deep' ? 'steps[0]' : 'messages[0]');
    }
  });

  it('lets through exactly what the library accepts: a message nested 512 levels, counting itself', async () => {
    // the body and its messages array are two levels, the message one, its values 511 more
    expect(MAX_BODY_DEPTH).toBe(514);
    const id = freshId('depth-512');
    expect((await call('POST', `/v1/sessions/${id}/prepare`, { body: nestedBody(511) })).status).toBe(200);
    const refused = await call('POST', `/v1/sessions/${id}/prepare`, { body: { append: [] }, headers: {} });
    expect(refused.status).toBe(200);
    const deeper = await call('POST', `/v1/sessions/${id}/prepare`, {
      body: nestedBody(512).replace('{"messages"', '{"append"'),
    });
    expect(deeper.status).toBe(400);
    expect((await json(deeper)).error).toMatchObject({ field: 'append[0]' });
  });
});

describe('session limits', () => {
  it('answers 413 naming the message limit, and keeps the session as it was', async () => {
    const id = freshId('message-limit');
    const vars = { MAX_SESSION_MESSAGES: '30' };
    expect(
      (
        await callWith(
          vars,
          request('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 20) } }),
        )
      ).status,
    ).toBe(200);
    const over = await callWith(
      vars,
      request('POST', `/v1/sessions/${id}/prepare`, { body: { append: realHistory.slice(20, 31) } }),
    );
    expect(over.status).toBe(413);
    expect((await json(over)).error).toMatchObject({
      code: 'payload-too-large',
      limit: 'messages',
      maxSessionMessages: 30,
      sessionMessages: 20,
    });
    expect((await json(await call('GET', `/v1/sessions/${id}`))).length).toBe(20);
    expect(
      (
        await callWith(
          vars,
          request('POST', `/v1/sessions/${id}/prepare`, { body: { append: realHistory.slice(20, 30) } }),
        )
      ).status,
    ).toBe(200);
  });

  it('answers 413 naming the byte limit, counted over what the session holds plus what comes', async () => {
    const id = freshId('byte-limit');
    const bytes = (count: number) =>
      realHistory
        .slice(0, count)
        .reduce((sum, message) => sum + new TextEncoder().encode(JSON.stringify(message)).byteLength, 0);
    const vars = { MAX_SESSION_BYTES: String(bytes(40)) };
    expect(
      (
        await callWith(
          vars,
          request('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 30) } }),
        )
      ).status,
    ).toBe(200);
    const over = await callWith(
      vars,
      request('POST', `/v1/sessions/${id}/prepare`, { body: { append: realHistory.slice(30, 41) } }),
    );
    expect(over.status).toBe(413);
    expect((await json(over)).error).toMatchObject({
      limit: 'bytes',
      maxSessionBytes: bytes(40),
      sessionBytes: bytes(30),
    });
    expect(
      (
        await callWith(
          vars,
          request('POST', `/v1/sessions/${id}/prepare`, { body: { append: realHistory.slice(30, 40) } }),
        )
      ).status,
    ).toBe(200);
  });

  it('keeps no raw history in memory after a call when SESSION_WARM_SECONDS is 0, and a summary reads none back', async () => {
    const id = freshId('cold-object');
    const vars = { SESSION_WARM_SECONDS: '0' };
    expect(
      (
        await callWith(
          vars,
          request('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 40) } }),
        )
      ).status,
    ).toBe(200);
    expect(await liveOf('tenant-a', id)).toBeNull();
    const appended = await callWith(
      vars,
      request('POST', `/v1/sessions/${id}/prepare`, { body: { append: realHistory.slice(40, 50) } }),
    );
    expect((await json(appended)).length).toBe(50);
    expect(await liveOf('tenant-a', id)).toBeNull();
    expect((await json(await call('GET', `/v1/sessions/${id}`))).length).toBe(50);
    expect(await liveOf('tenant-a', id)).toBeNull();
  });

  it('answers a cold object (history read back, or taken from the whole history sent) exactly as the library does', async () => {
    const id = freshId('cold-views');
    const options = { pressureCeiling: 4_000 };
    const local = new FoldSession({ ...options, freeze: true, now: () => CLOCK });
    const cuts = [10, 40, 80, 124];
    let digest: string | undefined;
    for (const [step, cut] of cuts.entries()) {
      const previous = step === 0 ? 0 : cuts[step - 1];
      const body =
        step % 2 === 0
          ? { messages: realHistory.slice(0, cut), options, now: CLOCK }
          : { append: realHistory.slice(previous, cut), prefixDigest: digest, now: CLOCK };
      const result = await json(
        await callWith({ SESSION_WARM_SECONDS: '0' }, request('POST', `/v1/sessions/${id}/prepare`, { body })),
      );
      expect(JSON.stringify(result.messages)).toBe(JSON.stringify(local.prepare(realHistory.slice(0, cut)).messages));
      digest = result.digest;
    }
  });

  it('keeps a warm session between calls and drops it on forget', async () => {
    const id = freshId('warm-object');
    await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 20) } });
    expect(await liveOf('tenant-a', id)).not.toBeNull();
    expect((await call('POST', `/v1/sessions/${id}/forget`)).status).toBe(204);
    expect(await liveOf('tenant-a', id)).toBeNull();
  });
});

describe('rate limits', () => {
  it('counts every token of a tenant against one limit', async () => {
    const [first, second] = tokensFor('tenant-limited');
    const vars = { RATE_LIMIT_REQUESTS: '4' };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await callWith(vars, request('GET', '/v1/sessions/none', { token: first }))).status);
    for (let i = 0; i < 3; i++)
      statuses.push((await callWith(vars, request('GET', '/v1/sessions/none', { token: second }))).status);
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
  });

  it('limits requests without a valid token per client address, and still admits a valid token from there', async () => {
    const vars = { UNAUTHENTICATED_RATE_LIMIT_REQUESTS: '3' };
    const from = (address: string, token: string | null) =>
      callWith(vars, request('GET', '/v1/sessions/none', { token, headers: { 'CF-Connecting-IP': address } }));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await from('203.0.113.7', i % 2 ? null : 'wrong-token-0123456789abcdef')).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const refused = await from('203.0.113.7', null);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await json(refused)).error.code).toBe('rate-limited');
    expect((await from('203.0.113.8', null)).status).toBe(401);
    expect((await from('203.0.113.7', tokenFor('tenant-a'))).status).toBe(404);
  });
});

describe('token configuration', () => {
  const misconfigurations = [
    [
      'a token shorter than 16 characters',
      { WARPFOLD_TOKENS: JSON.stringify({ 'short-token': 'tenant-a' }) },
      /at least 16 characters/,
    ],
    [
      'a token of low entropy',
      { WARPFOLD_TOKENS: JSON.stringify({ aaaaaaaaaaaabbbbbbbbbbbb: 'tenant-a' }) },
      /too little entropy/,
    ],
    ['no token at all', { WARPFOLD_TOKENS: '', WARPFOLD_TOKEN: '' }, /set WARPFOLD_TOKEN/],
  ] as const;
  for (const [what, vars, reason] of misconfigurations) {
    it(`${what}: health answers 503, callers a generic 503, the log the reason`, async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const health = await callWith(vars, request('GET', '/v1/health', { token: null }));
      expect(health.status).toBe(503);
      expect(await json(health)).toMatchObject({ status: 'misconfigured' });
      const caller = await callWith(vars, request('GET', '/v1/sessions/x', { token: null }));
      expect(caller.status).toBe(503);
      const text = await caller.text();
      expect(JSON.parse(text).error.code).toBe('misconfigured');
      expect(text).not.toMatch(reason);
      expect(text).not.toMatch(/token/i);
      expect(errors.mock.calls.map((args) => String(args[0])).join('\n')).toMatch(reason);
    });
  }

  it('health answers 200 when configured, and HEAD answers like GET', async () => {
    expect((await call('GET', '/v1/health', { token: null })).status).toBe(200);
    const head = await call('HEAD', '/v1/health', { token: null });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('logs a token by its configured name or an HMAC under WARPFOLD_FINGERPRINT_KEY, never a plain hash of it', async () => {
    const lines = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const [unnamed, named] = tokensFor('tenant-limited');
    const requestLine = () => JSON.parse(String(lines.mock.calls.at(-1)?.[0])) as Record<string, unknown>;
    await callWith({ RATE_LIMIT_REQUESTS: '100000' }, request('GET', '/v1/sessions/none', { token: named }));
    expect(requestLine()).toMatchObject({ tenant: 'tenant-limited', token: 'ci-second-token' });
    await callWith({ RATE_LIMIT_REQUESTS: '100000' }, request('GET', '/v1/sessions/none', { token: unnamed }));
    expect(requestLine().token).toBeUndefined();
    const key = 'fingerprint-key-Zq8Rw2LkP0xV7mNc';
    await callWith(
      { RATE_LIMIT_REQUESTS: '100000', WARPFOLD_FINGERPRINT_KEY: key },
      request('GET', '/v1/sessions/none', { token: unnamed }),
    );
    const hmacKey = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(key),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const expected = Array.from(
      new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(unnamed))).subarray(0, 12),
      (byte) => byte.toString(16).padStart(2, '0'),
    ).join('');
    expect(requestLine().token).toBe(`hmac:${expected}`);
  });
});

describe('bounded answers', () => {
  it('pages GET /v1/episodes: 100 by default, then a cursor walks the rest without repeats', async () => {
    const token = tokenFor('tenant-b');
    const recorded = new Set<string>();
    for (let n = 0; recorded.size <= 100; n++) {
      const result = await json(
        await call('POST', '/v1/episodes', { token, body: { sessionId: `paged-${n}`, messages: realHistory } }),
      );
      for (const id of result.ids) recorded.add(id);
    }
    const first = await json(await call('GET', '/v1/episodes', { token }));
    expect(first.episodes).toHaveLength(100);
    expect(typeof first.nextCursor).toBe('string');
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: Record<string, any> = await json(
        await call('GET', `/v1/episodes?limit=40${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token }),
      );
      expect(page.episodes.length).toBeLessThanOrEqual(40);
      for (const episode of page.episodes) {
        expect(seen.has(episode.id)).toBe(false);
        seen.add(episode.id);
      }
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect([...recorded].every((id) => seen.has(id))).toBe(true);
    const bad = await call('GET', '/v1/episodes?cursor=not-a-cursor', { token });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.field).toBe('cursor');
  });

  it('gives a session created without options an explicit ceiling from the default model, and a Claude request its own', async () => {
    const id = freshId('default-ceiling');
    await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 4) } });
    expect((await json(await call('GET', `/v1/sessions/${id}`))).options).toEqual({
      budget: { engine: 'openai', model: 'gpt-4o' },
    });
    const claude = freshId('default-claude');
    const response = await call('POST', '/v1/anthropic/prepare', {
      body: {
        sessionId: claude,
        messages: [{ role: 'user', content: 'hi' }],
        params: { model: 'claude-sonnet-4-5', max_tokens: 100 },
      },
    });
    expect(response.status).toBe(200);
    expect((await json(await call('GET', `/v1/sessions/${claude}`))).options).toEqual({
      budget: { engine: 'anthropic', model: 'claude-sonnet-4-5' },
    });
    const chosen = freshId('chosen-ceiling');
    await callWith(
      { DEFAULT_BUDGET_ENGINE: 'anthropic', DEFAULT_BUDGET_MODEL: 'claude-opus-4-6' },
      request('POST', `/v1/sessions/${chosen}/prepare`, {
        body: { messages: realHistory.slice(0, 4), options: { recall: false } },
      }),
    );
    expect((await json(await call('GET', `/v1/sessions/${chosen}`))).options).toEqual({
      recall: false,
      budget: { engine: 'anthropic', model: 'claude-opus-4-6' },
    });
    expect(
      (
        await callWith(
          { DEFAULT_BUDGET_MODEL: 'no-such-model-anywhere' },
          request('GET', '/v1/health', { token: null }),
        )
      ).status,
    ).toBe(503);
  });
});

describe('HTTP details', () => {
  it('takes the Bearer scheme in any case', async () => {
    const token = tokenFor('tenant-a');
    for (const scheme of ['bearer', 'BEARER', 'BeArEr'])
      expect(
        (await call('GET', '/v1/sessions/none', { token: null, headers: { Authorization: `${scheme} ${token}` } }))
          .status,
      ).toBe(404);
  });

  it('answers 404 for the bench hook when it is off, with or without a Content-Type or a token', async () => {
    const id = freshId('hook');
    const off = { WARPFOLD_BENCH_HOOKS: '0' };
    expect((await callWith(off, request('POST', `/v1/sessions/${id}/forget`))).status).toBe(404);
    expect((await callWith(off, request('POST', `/v1/sessions/${id}/forget`, { body: {} }))).status).toBe(404);
    expect((await callWith(off, request('POST', `/v1/sessions/${id}/forget`, { token: null }))).status).toBe(404);
    expect((await call('POST', `/v1/sessions/${id}/forget`)).status).toBe(204);
  });
});
