import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, freshId, json, realHistory, tokenFor } from './worker-client.ts';

/**
 * What a hostile or careless client may send, on every route: nothing may answer 5xx, and the
 * worker must keep serving afterwards.
 */

const encoder = new TextEncoder();
const token = () => tokenFor('tenant-b');

/** Every route the API has, with a concrete path. */
const ROUTES = [
  '/v1/sessions/hostile/prepare',
  '/v1/sessions/hostile',
  '/v1/sessions/hostile/forget',
  '/v1/fold',
  '/v1/anthropic/prepare',
  '/v1/episodes',
  '/v1/rails/hostile',
  '/v1/health',
  '/v1/openapi.json',
  '/v1/nothing',
  '/',
];
const BODY_ROUTES: Array<[string, string]> = [
  ['POST', '/v1/sessions/hostile/prepare'],
  ['POST', '/v1/fold'],
  ['POST', '/v1/anthropic/prepare'],
  ['POST', '/v1/episodes'],
  ['PUT', '/v1/rails/hostile'],
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function send(
  method: string,
  path: string,
  body: BodyInit | null,
  headers: Record<string, string> = {},
): Promise<Response> {
  if (body !== null && typeof body !== 'string') {
    // bytes or a stream, sent as they are
    return exports.default.fetch(
      new Request(`https://warpfold.test${path}`, {
        method,
        body,
        headers: { Authorization: `Bearer ${token()}`, 'Content-Type': 'application/json', ...headers },
      }),
    );
  }
  return call(method, path, {
    token: null,
    headers: { Authorization: `Bearer ${token()}`, 'Content-Type': 'application/json', ...headers },
    ...(body !== null ? { body } : {}),
  });
}

async function expectNo5xx(response: Response, what: string): Promise<number> {
  const text = await response.text();
  expect(response.status, `${what}: ${text.slice(0, 300)}`).toBeLessThan(500);
  return response.status;
}

/** A body of exactly `bytes` bytes, streamed in 1 MB chunks, so no Content-Length is known. */
function streamedBody(bytes: number): ReadableStream<Uint8Array> {
  const chunk = encoder.encode('x'.repeat(1024 * 1024));
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const piece = chunk.subarray(0, Math.min(chunk.byteLength, bytes - sent));
      sent += piece.byteLength;
      controller.enqueue(piece);
    },
  });
}

async function stillServing(): Promise<void> {
  expect((await call('GET', '/v1/health', { token: null })).status).toBe(200);
  const id = freshId('after-hostile');
  const response = await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 10) } });
  expect(response.status).toBe(200);
  expect((await json(response)).length).toBe(10);
}

describe('hostile input', () => {
  it('bodies nested up to 100,000 levels, arrays and objects, on every body route', async () => {
    for (const depth of [600, 5_000, 100_000]) {
      const arrays = `{"messages":[{"role":"user","content":${'['.repeat(depth)}${']'.repeat(depth)}}]}`;
      const objects = `{"messages":[{"role":"user","content":"x","deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}]}`;
      const unclosed = `{"messages":${'['.repeat(depth)}`;
      for (const [method, path] of BODY_ROUTES) {
        for (const body of [arrays, objects, unclosed])
          expect(await expectNo5xx(await send(method, path, body), `${method} ${path} depth ${depth}`)).toBe(400);
      }
    }
    await stillServing();
  });

  it('30 MB bodies, with and without Content-Length', async () => {
    const big = 30 * 1024 * 1024;
    const declared = `{"messages":[{"role":"user","content":"${'x'.repeat(big)}"}]}`;
    for (const [method, path] of BODY_ROUTES) {
      expect(await expectNo5xx(await send(method, path, declared), `${method} ${path} declared`)).toBe(413);
      expect(await expectNo5xx(await send(method, path, streamedBody(big)), `${method} ${path} streamed`)).toBe(413);
    }
    await stillServing();
  });

  it('invalid UTF-8, malformed JSON, wrong types and unknown fields', async () => {
    const invalidUtf8 = new Uint8Array([
      ...encoder.encode('{"messages":[{"role":"user","content":"'),
      0xc3,
      0x28,
      0xff,
      0xfe,
      ...encoder.encode('"}]}'),
    ]);
    const bodies: Array<BodyInit> = [
      invalidUtf8,
      '',
      '{',
      'null',
      '[]',
      '"text"',
      '12',
      '{"messages":null}',
      '{"messages":{"role":"user"}}',
      '{"messages":[null,1,"x",[],true]}',
      '{"messages":[{"role":7,"content":{"a":1}}]}',
      '{"messages":[{"role":"user","content":"x"}],"options":{"pressureCeiling":"high","freeze":"yes","surprise":1}}',
      '{"messages":[{"role":"user","content":"x"}],"now":-1,"measuredInputTokens":"many","hardEpoch":1}',
      '{"messages":[{"role":"user","content":"x"}],"surprise":{"deep":[1,2,3]},"__proto__":{"polluted":true}}',
      '{"append":[{"role":"user","content":"x"}],"prefixDigest":"sha256:nothex"}',
      '{"sessionId":"../../etc","messages":[{"role":"user","content":"x"}]}',
      '{"id":"hostile","title":7,"revision":"one"}',
      `{"messages":[${'1,'.repeat(60_000)}1]}`,
      `{"messages":[${'{"role":1},'.repeat(40_000)}{"role":1}]}`,
    ];
    for (const [method, path] of BODY_ROUTES) {
      for (const body of bodies) {
        const what = `${method} ${path} ${typeof body === 'string' ? body.slice(0, 60) : 'bytes'}`;
        const status = await expectNo5xx(await send(method, path, body), what);
        // an episode's sessionId is only a label: any 1–128 characters
        const accepted = path === '/v1/episodes' && typeof body === 'string' && body.startsWith('{"sessionId"');
        expect(accepted ? [200] : [400, 409, 415], what).toContain(status);
      }
    }
    const wrongType = await send('POST', '/v1/fold', '{"messages":[{"role":"user","content":"x"}]}', {
      'Content-Type': 'text/plain',
    });
    expect(await expectNo5xx(wrongType, 'text/plain')).toBe(415);
    const manyIssues = await send('POST', '/v1/fold', `{"messages":[${'{"role":1},'.repeat(40_000)}{"role":1}]}`);
    expect((await manyIssues.text()).length).toBeLessThan(10_000);
    await stillServing();
  });

  it('10,000 tiny messages', async () => {
    const messages = Array.from({ length: 10_000 }, (_, index) => ({
      role: index % 2 ? 'assistant' : 'user',
      content: String(index % 10),
    }));
    const id = freshId('tiny');
    expect(
      await expectNo5xx(await send('POST', `/v1/sessions/${id}/prepare`, JSON.stringify({ messages })), 'session'),
    ).toBe(200);
    expect(await expectNo5xx(await send('POST', '/v1/fold', JSON.stringify({ messages })), 'fold')).toBe(200);
    expect(
      await expectNo5xx(await send('POST', '/v1/anthropic/prepare', JSON.stringify({ messages })), 'anthropic'),
    ).toBeLessThan(500);
    expect(
      await expectNo5xx(await send('POST', '/v1/episodes', JSON.stringify({ sessionId: id, messages })), 'episodes'),
    ).toBe(200);
    await stillServing();
  });

  it('every route × method, with no body, an empty object and garbage, with and without a token', async () => {
    for (const path of ROUTES) {
      for (const method of METHODS) {
        for (const body of method === 'GET' || method === 'HEAD' ? [null] : [null, '{}', '\u0000garbage'])
          await expectNo5xx(await send(method, path, body), `${method} ${path} ${String(body)}`);
        await expectNo5xx(
          await call(method, path, { token: null, headers: { 'CF-Connecting-IP': '198.51.100.9' } }),
          `${method} ${path} without a token`,
        );
      }
    }
    for (const authorization of [
      'Bearer',
      'Bearer ',
      `Bearer ${'x'.repeat(10_000)}`,
      'Basic Zm9vOmJhcg==',
      `Bearer ${token()} extra`,
    ]) {
      await expectNo5xx(
        await call('GET', '/v1/sessions/hostile', {
          token: null,
          headers: { Authorization: authorization, 'CF-Connecting-IP': '198.51.100.10' },
        }),
        authorization.slice(0, 20),
      );
    }
    for (const path of [
      '/v1/sessions/%ff%fe/prepare',
      `/v1/sessions/${'x'.repeat(5_000)}`,
      '/v1/rails/..%2f..%2f',
      '/v1/episodes?limit=-1&cursor=%00',
      '/v1/episodes?path=&path=&limit=99999999999999999999',
    ]) {
      await expectNo5xx(await send('GET', path, null), path.slice(0, 40));
    }
    await stillServing();
  });
});
