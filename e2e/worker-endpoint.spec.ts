// The edge endpoint under `wrangler dev` on loopback, driven over HTTP like a real client:
// views byte-identical to the library run here, state across a restart (--persist-to),
// concurrent appends, and every error status.
import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { FoldSession, type ProviderMessage } from '../src/index.ts';
import { historyDigest } from '../worker/history-digest.ts';
import { startWranglerDev, type WranglerDev } from '../test/helpers/wrangler-dev-process.ts';

test.describe.configure({ mode: 'serial' });

const token = () => randomBytes(24).toString('base64url');
const tokens = { a: token(), b: token(), readOnly: token(), burst: token() };
const RATE_LIMIT = 40;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_SESSION_MESSAGES = 110;
const UNAUTHENTICATED_LIMIT = 8;
const options = { pressureCeiling: 4_000 };
const CLOCK = 1_760_000_000_000;

let directory: string;
let server: WranglerDev;
let history: ProviderMessage[];

async function start(): Promise<void> {
  server = await startWranglerDev({
    persistTo: join(directory, 'state'),
    envFile: join(directory, '.dev.vars'),
    vars: {
      RATE_LIMIT_REQUESTS: String(RATE_LIMIT),
      MAX_BODY_BYTES: String(MAX_BODY_BYTES),
      MAX_SESSION_MESSAGES: String(MAX_SESSION_MESSAGES),
      UNAUTHENTICATED_RATE_LIMIT_REQUESTS: String(UNAUTHENTICATED_LIMIT),
    },
  });
}

function api(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  bearer: string | null = tokens.a,
): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
}

/**
 * Uploads a JSON body of `total` bytes over a raw socket, 64 KB at a time, under a Content-Length
 * header, and stops at the first line of the answer. A socket (not fetch) so the client stops
 * sending when the server answers, as a careful client would.
 */
function uploadUntilAnswered(
  url: string,
  bearer: string,
  total: number,
): Promise<{ statusLine: string; sentBytes: number }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let sentBytes = 0;
    let answered = false;
    let received = '';
    const chunk = Buffer.from('x'.repeat(64 * 1024));
    socket.on('data', (data) => {
      answered = true;
      received += data.toString('latin1');
      if (received.includes('\r\n')) {
        socket.destroy();
        resolve({ statusLine: received.slice(0, received.indexOf('\r\n')), sentBytes });
      }
    });
    socket.on('error', (error) => (answered ? undefined : reject(error)));
    socket.on('connect', async () => {
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${bearer}\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
      );
      // a second for a server that answers from the headers alone, so a busy machine cannot make
      // the body race its answer; a server that waits for the body gets it after that
      for (let waited = 0; !answered && waited < 1_000; waited += 10) await new Promise((tick) => setTimeout(tick, 10));
      while (!answered && sentBytes < total) {
        socket.write(chunk);
        sentBytes += chunk.length;
        await new Promise((tick) => setTimeout(tick, 2));
      }
      if (!answered)
        setTimeout(
          () => (answered ? undefined : reject(new Error(`sent all ${sentBytes} bytes without an answer`))),
          5_000,
        );
    });
  });
}

/**
 * Uploads `total` bytes chunked (no Content-Length) the way an ordinary client does: it sends the
 * whole body, then reads the answer. A server that stops reading and closes loses the answer to a
 * connection reset; one that drains lets the client read it.
 */
function chunkedUpload(url: string, bearer: string, total: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (data: string) => (body += data));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    const chunk = Buffer.from('x'.repeat(64 * 1024));
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      request.end();
    };
    pump();
  });
}

/** The exact bytes the library's view serializes to, as the response must begin. */
const viewPrefix = (messages: readonly ProviderMessage[]) => `{"messages":${JSON.stringify(messages)},"cacheHot":`;

test.beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'warpfold-worker-e2e-'));
  const table = {
    [tokens.a]: 'tenant-a',
    [tokens.b]: 'tenant-b',
    [tokens.readOnly]: { tenant: 'tenant-a', readOnly: true },
    [tokens.burst]: 'tenant-c',
  };
  await writeFile(join(directory, '.dev.vars'), `WARPFOLD_TOKENS=${JSON.stringify(table)}\n`);
  history = JSON.parse(
    await readFile(
      new URL('../test/fixtures/worker/msa-ds-chat-dev-pydicom__pydicom-901.json', import.meta.url),
      'utf8',
    ),
  ).messages;
  await start();
});

test.afterAll(async () => {
  await server?.stop();
  await rm(directory, { recursive: true, force: true });
});

// one local library session the server's session must match call for call, across the restart
const local = new FoldSession({ ...options, now: () => CLOCK });
let digest: string;

test('prepared views are byte-identical to the library run locally', async () => {
  const cuts = [8, 30, 55, 70];
  for (const [step, cut] of cuts.entries()) {
    const from = step === 0 ? 0 : cuts[step - 1];
    const body =
      step === 0
        ? { messages: history.slice(0, cut), options, now: CLOCK }
        : { append: history.slice(from, cut), prefixDigest: digest, now: CLOCK };
    const response = await api('POST', '/v1/sessions/e2e/prepare', body);
    expect(response.status, server.output()).toBe(200);
    const text = await response.text();
    const expected = local.prepare(history.slice(0, cut));
    expect(text.startsWith(viewPrefix(expected.messages))).toBe(true);
    const result = JSON.parse(text);
    expect(result.sealedBoundary).toBe(expected.sealedBoundary);
    expect(result.digest).toBe(await historyDigest(history.slice(0, cut)));
    digest = result.digest;
  }
  expect(local.telemetry.epochs).toBeGreaterThan(0);
});

test('state survives a restart of wrangler dev', async () => {
  await server.stop();
  await start();
  const summary = await (await api('GET', '/v1/sessions/e2e')).json();
  expect(summary).toMatchObject({ length: 70, digest, options });
  const response = await api('POST', '/v1/sessions/e2e/prepare', {
    append: history.slice(70, 100),
    prefixDigest: digest,
    now: CLOCK,
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text.startsWith(viewPrefix(local.prepare(history.slice(0, 100)).messages))).toBe(true);
  digest = JSON.parse(text).digest;
});

test('concurrent appends serialize: one per prefix digest wins, the others get 409', async () => {
  const racers = await Promise.all(
    history
      .slice(100, 106)
      .map((message) =>
        api('POST', '/v1/sessions/e2e/prepare', { append: [message], prefixDigest: digest, now: CLOCK }),
      ),
  );
  const statuses = racers.map((response) => response.status).sort();
  expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
  const losers = await Promise.all(
    racers.filter((response) => response.status === 409).map((response) => response.json()),
  );
  for (const loser of losers) expect(loser.error).toMatchObject({ code: 'conflict', serverLength: 101 });
  expect((await (await api('GET', '/v1/sessions/e2e')).json()).length).toBe(101);
});

test('the session limit holds across a restart: 413 naming it, and the session goes on within it', async () => {
  const limited = new FoldSession({ ...options, now: () => CLOCK });
  const first = await api('POST', '/v1/sessions/limited/prepare', {
    messages: history.slice(0, 105),
    options,
    now: CLOCK,
  });
  expect(first.status).toBe(200);
  limited.prepare(history.slice(0, 105));
  const held = (await first.json()).digest;
  const over = await api('POST', '/v1/sessions/limited/prepare', {
    append: history.slice(105, 115),
    prefixDigest: held,
    now: CLOCK,
  });
  expect(over.status).toBe(413);
  expect((await over.json()).error).toMatchObject({
    limit: 'messages',
    maxSessionMessages: MAX_SESSION_MESSAGES,
    sessionMessages: 105,
  });
  await server.stop();
  await start();
  expect(
    (
      await api('POST', '/v1/sessions/limited/prepare', {
        append: history.slice(105, 115),
        prefixDigest: held,
        now: CLOCK,
      })
    ).status,
  ).toBe(413);
  const within = await api('POST', '/v1/sessions/limited/prepare', {
    append: history.slice(105, 110),
    prefixDigest: held,
    now: CLOCK,
  });
  expect(within.status).toBe(200);
  expect((await within.text()).startsWith(viewPrefix(limited.prepare(history.slice(0, 110)).messages))).toBe(true);
});

test('a chunked upload over the body limit: the client sends it all and reads the 413 with its body', async () => {
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await chunkedUpload(`${server.url}/v1/fold`, tokens.a, 4 * MAX_BODY_BYTES);
    expect(answer.status, server.output()).toBe(413);
    expect(JSON.parse(answer.body).error).toMatchObject({ code: 'payload-too-large', maxBytes: MAX_BODY_BYTES });
  }
  expect((await api('GET', '/v1/sessions/e2e')).status).toBe(200);
});

test('every error status: 400 401 403 404 405 409 413 415 429', async () => {
  const bad = await api('POST', '/v1/fold', { messages: [{ role: 'user', content: 'a' }, { content: 'b' }] });
  expect(bad.status).toBe(400);
  expect((await bad.json()).error.field).toBe('messages[1].role');

  expect((await api('GET', '/v1/sessions/e2e', undefined, {}, null)).status).toBe(401);
  expect((await api('GET', '/v1/sessions/e2e', undefined, {}, 'not-a-token-at-all-000000')).status).toBe(401);

  expect((await api('DELETE', '/v1/sessions/e2e', undefined, {}, tokens.readOnly)).status).toBe(403);
  expect((await api('GET', '/v1/health', undefined, { Origin: 'https://elsewhere.example' })).status).toBe(403);

  expect((await api('GET', '/v1/sessions/e2e', undefined, {}, tokens.b)).status).toBe(404);
  expect((await api('GET', '/v1/no-such-route')).status).toBe(404);

  const wrongMethod = await api('PATCH', '/v1/sessions/e2e', {});
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.get('Allow')).toContain('GET');

  expect(
    (await api('POST', '/v1/sessions/e2e/prepare', { append: history.slice(101, 102), prefixDigest: digest })).status,
  ).toBe(409);

  expect((await api('POST', '/v1/fold', 'hello', { 'Content-Type': 'text/plain' })).status).toBe(415);

  const burst: number[] = [];
  for (let i = 0; i <= RATE_LIMIT; i++)
    burst.push((await api('GET', '/v1/sessions/none', undefined, {}, tokens.burst)).status);
  expect(burst.slice(0, RATE_LIMIT).every((status) => status === 404)).toBe(true);
  const limited = await api('GET', '/v1/sessions/none', undefined, {}, tokens.burst);
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
  expect((await api('GET', '/v1/sessions/e2e')).status).toBe(200);
  // without a valid token, one address (what wrangler dev passes as CF-Connecting-IP) gets a few tries
  const guesses: number[] = [];
  for (let i = 0; i <= UNAUTHENTICATED_LIMIT; i++)
    guesses.push((await api('GET', '/v1/sessions/e2e', undefined, {}, `guess-${i}-0123456789abcdef`)).status);
  expect(guesses).toContain(429);
  expect(guesses.slice(0, guesses.indexOf(429)).every((status) => status === 401)).toBe(true);
  expect((await api('GET', '/v1/sessions/e2e')).status).toBe(200);
  // 413 last: after a client drops an upload midway, wrangler dev's local proxy (not the worker)
  // may answer the next request on its pooled connection with 503
  // Content-Length over the limit: refused before a byte of the body is read (chunked: see above)
  const declared = await uploadUntilAnswered(`${server.url}/v1/fold`, tokens.a, 8 * MAX_BODY_BYTES);
  expect(declared.statusLine).toMatch(/^HTTP\/1\.1 413 /);
  expect(declared.sentBytes).toBeLessThan(MAX_BODY_BYTES);
});
