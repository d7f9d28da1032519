import { describe, expect, it } from 'vitest';
import { call, callWith, freshId, json, realHistory, request, tokenFor } from './worker-client.ts';

function expectNoStack(text: string): void {
  expect(text).not.toMatch(/\bat .+:\d+:\d+/);
  expect(text).not.toMatch(/\.ts\b|node_modules/);
}

describe('errors', () => {
  it('401 without a token or with a wrong one, naming the scheme', async () => {
    const none = await call('GET', '/v1/sessions/x', { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
    expect((await json(none)).error.code).toBe('unauthorized');
    const wrong = await call('GET', '/v1/sessions/x', { token: `${tokenFor('tenant-a')}x` });
    expect(wrong.status).toBe(401);
    expect(
      (
        await call('GET', '/v1/sessions/x', {
          headers: { Authorization: `Basic ${tokenFor('tenant-a')}` },
          token: null,
        })
      ).status,
    ).toBe(401);
  });

  it('403 for a read-only token that writes (it may read) and for a browser origin not allowed', async () => {
    const readOnly = tokenFor('tenant-a', true);
    const write = await call('POST', '/v1/sessions/ro/prepare', {
      token: readOnly,
      body: { messages: realHistory.slice(0, 2) },
    });
    expect(write.status).toBe(403);
    expect((await json(write)).error.code).toBe('forbidden');
    expect((await call('GET', '/v1/sessions/never-made', { token: readOnly })).status).toBe(404);
    const foreign = await call('GET', '/v1/health', { headers: { Origin: 'https://elsewhere.example' } });
    expect(foreign.status).toBe(403);
  });

  it('404 for an unknown route or record, 405 with Allow for a known route and another method', async () => {
    expect((await call('GET', '/v1/nothing-here')).status).toBe(404);
    expect((await call('GET', '/v1/rails/none')).status).toBe(404);
    const wrongMethod = await call('PUT', '/v1/sessions/some-id', { body: {} });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('Allow')).toBe('DELETE, GET, HEAD');
    expect((await call('POST', '/v1/health', { body: {} })).status).toBe(405);
  });

  it('409 for a stale prefix digest', async () => {
    const id = freshId('stale');
    await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 2) } });
    const response = await call('POST', `/v1/sessions/${id}/prepare`, {
      body: { append: realHistory.slice(2, 3), prefixDigest: `sha256:${'0'.repeat(64)}` },
    });
    expect(response.status).toBe(409);
  });

  it('413 beyond the body limit, declared or streamed, before the route runs', async () => {
    const vars = { MAX_BODY_BYTES: '1000' };
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(2_000) }] });
    const declared = await callWith(vars, request('POST', `/v1/sessions/${freshId('big')}/prepare`, { body }));
    expect(declared.status).toBe(413);
    expect((await json(declared)).error).toMatchObject({ code: 'payload-too-large', maxBytes: 1000 });
    const chunks = [new TextEncoder().encode(body.slice(0, 600)), new TextEncoder().encode(body.slice(600))];
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled < chunks.length) controller.enqueue(chunks[pulled++]);
        else controller.close();
      },
    });
    const streamed = new Request('https://warpfold.test/v1/fold', {
      method: 'POST',
      body: stream,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokenFor('tenant-a')}` },
    });
    expect(streamed.headers.get('Content-Length')).toBeNull();
    expect((await callWith(vars, streamed)).status).toBe(413);
    const id = freshId('small');
    expect(
      (
        await callWith(
          vars,
          request('POST', `/v1/sessions/${id}/prepare`, { body: { messages: [{ role: 'user', content: 'hi' }] } }),
        )
      ).status,
    ).toBe(200);
  });

  it('415 for a body that is not JSON', async () => {
    const response = await call('POST', '/v1/fold', {
      body: 'messages=1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect((await json(response)).error.code).toBe('unsupported-media-type');
  });

  it('429 per tenant once its window is spent, with Retry-After; other tenants go on', async () => {
    const vars = { RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' };
    const token = tokenFor('tenant-b');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await callWith(vars, request('GET', '/v1/sessions/none', { token }))).status);
    // tenant-b may have spent some of this window in other tests: it ends refused, and stays so
    expect(statuses.slice(-2)).toEqual([429, 429]);
    expect(statuses.every((status) => status === 404 || status === 429)).toBe(true);
    const limited = await callWith(vars, request('GET', '/v1/sessions/none', { token }));
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await json(limited)).error.code).toBe('rate-limited');
    expect((await call('GET', '/v1/sessions/none', { token: tokenFor('tenant-a', true) })).status).toBe(404);
  });

  it('400 names the bad field: schema, malformed JSON, path parameter, budget', async () => {
    const role = await json(
      await call('POST', '/v1/fold', { body: { messages: [{ role: 'user', content: 'a' }, { content: 'no role' }] } }),
    );
    expect(role.error).toMatchObject({ code: 'invalid-request', field: 'messages[1].role' });
    const ceiling = await json(
      await call('POST', '/v1/fold', { body: { messages: [], options: { pressureCeiling: 10 } } }),
    );
    expect(ceiling.error.field).toBe('options.pressureCeiling');
    const both = await json(await call('POST', '/v1/sessions/x/prepare', { body: { messages: [], append: [] } }));
    expect(both.error.field).toBe('messages');
    const extra = await json(await call('POST', '/v1/fold', { body: { messages: [], surprise: 1 } }));
    expect(extra.error.field).toBe('(body)');
    expect(extra.error.message).toMatch(/surprise/);
    const malformed = await call('POST', '/v1/fold', { body: '{"messages": [' });
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).error.field).toBe('(body)');
    const badId = await json(await call('GET', `/v1/sessions/${'x'.repeat(200)}`));
    expect(badId.error.field).toBe('id');
    const model = await json(
      await call('POST', '/v1/fold', {
        body: { messages: [], options: { budget: { engine: 'openai', model: 'no-such-model-anywhere' } } },
      }),
    );
    expect(model.error.field).toBe('options.budget.contextWindowTokens');
    const library = await json(
      await call('POST', '/v1/fold', {
        body: {
          messages: [
            { role: 'user', content: 'a' },
            { role: 'wizard', content: 'b' },
          ],
        },
      }),
    );
    expect(library.error).toMatchObject({ field: 'messages[1]' });
  });

  it('503 without a stack when the token configuration is broken, and the broken part is not echoed', async () => {
    const response = await callWith({ WARPFOLD_TOKENS: '{not json' }, request('GET', '/v1/sessions/x'));
    expect(response.status).toBe(503);
    const text = await response.text();
    expectNoStack(text);
    expect(JSON.parse(text).error.code).toBe('misconfigured');
    expect(text).not.toContain('{not json');
  });

  it('every error body is { error: { code, message }, requestId } with the X-Request-Id header', async () => {
    const response = await call('GET', '/v1/nothing-here');
    const body = await json(response);
    expect(body.requestId).toBe(response.headers.get('X-Request-Id'));
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
  });
});

describe('CORS', () => {
  it('answers an allowed preflight without a token and marks responses for that origin', async () => {
    const vars = { CORS_ORIGINS: 'https://app.example, https://other.example' };
    const preflight = await callWith(
      vars,
      new Request('https://warpfold.test/v1/fold', {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://app.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe('https://app.example');
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toMatch(/Authorization/);
    const actual = await callWith(
      vars,
      request('POST', '/v1/fold', {
        body: { messages: [{ role: 'user', content: 'hi' }] },
        headers: { Origin: 'https://other.example' },
      }),
    );
    expect(actual.status).toBe(200);
    expect(actual.headers.get('Access-Control-Allow-Origin')).toBe('https://other.example');
    expect(
      (await callWith(vars, request('GET', '/v1/health', { headers: { Origin: 'https://evil.example' } }))).status,
    ).toBe(403);
  });
});

describe('public routes', () => {
  it('health needs no token; the OpenAPI 3.1 document describes the validated schemas', async () => {
    expect(await json(await call('GET', '/v1/health', { token: null }))).toMatchObject({ status: 'ok' });
    const document = await json(await call('GET', '/v1/openapi.json', { token: null }));
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/v1/sessions/{id}/prepare',
        '/v1/sessions/{id}',
        '/v1/fold',
        '/v1/episodes',
        '/v1/rails/{id}',
        '/v1/health',
        '/v1/anthropic/prepare',
      ]),
    );
    expect(Object.keys(document.paths)).not.toContain('/v1/sessions/{id}/forget');
    const prepare = document.components.schemas.PrepareRequest;
    expect(Object.keys(prepare.properties)).toEqual(
      expect.arrayContaining(['messages', 'append', 'prefixDigest', 'measuredInputTokens', 'hardEpoch', 'options']),
    );
    expect(document.components.schemas.SessionOptions.properties.pressureCeiling).toBeDefined();
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
