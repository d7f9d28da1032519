// The edge gateway under load: 16 sessions at once, each replaying a 60-step Claude Code session
// (the whole history every call, 14–29 KB tool outputs, three cache marks) at a 40,000 ceiling
// through `wrangler dev`'s /anthropic route, against the same stand-in provider reached directly.
// Time to first byte is read per request; the added time is through-the-gateway minus direct, per
// percentile. Then one session near MAX_SESSION_BYTES: the isolate's heap with its object warm.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CLAUDE_HEADERS, claudeCodeBody } from '../../test/helpers/agent-requests.ts';
import { startWranglerDev } from '../../test/helpers/wrangler-dev-process.ts';
import { isolateHeapUsage } from './inspector-heap.ts';

export const GATEWAY_SESSIONS = 16;
export const GATEWAY_STEPS = 60;
export const GATEWAY_CEILING = 40_000;
/** The helper's outputs run 24–47 KB; this scale makes them the 14–29 KB a real Claude Code session's are. */
const OUTPUT_SCALE = 0.6;

export interface GatewayBenchResult {
  readonly sessions: number;
  readonly steps: number;
  readonly ceiling: number;
  readonly requests: number;
  readonly errors: number;
  /** The statuses of the answers that were not 200, and how many of each (`direct 503`, `gateway 429`). */
  readonly errorStatuses: Readonly<Record<string, number>>;
  readonly foldedShare: number;
  readonly directTtfbP50Milliseconds: number;
  readonly directTtfbP99Milliseconds: number;
  readonly gatewayTtfbP50Milliseconds: number;
  readonly gatewayTtfbP99Milliseconds: number;
  readonly addedTtfbP50Milliseconds: number;
  readonly addedTtfbP99Milliseconds: number;
  /** The session held at the limit: its messages and request bytes. */
  readonly limitMessages: number;
  readonly limitRequestMegabytes: number;
  readonly heapBaselineMegabytes: number;
  readonly heapWithSessionMegabytes: number;
  readonly heapAddedMegabytes: number;
}

const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  if (!sorted.length) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] * 10) / 10;
}

/** A provider stand-in that reads the whole body and answers an Anthropic stream at once, with usage. */
async function startStandIn(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((incoming, outgoing) => {
    let bytes = 0;
    incoming.on('data', (chunk: Buffer) => (bytes += chunk.length));
    incoming.on('end', () => {
      outgoing.writeHead(200, { 'content-type': 'text/event-stream' });
      const usage = { input_tokens: Math.round(bytes / 8), cache_read_input_tokens: 0, output_tokens: 1 };
      outgoing.write(
        `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg', usage } })}\n\n`,
      );
      outgoing.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
    });
  });
  // the gateway reuses its connections; a stand-in that drops an idle one after Node's 5 s default
  // races the next request sent on it ("Network connection lost"), which is the stand-in's doing
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Time to the first byte of the answer's body, then the rest read to the end. */
async function timeToFirstByte(url: string, headers: Record<string, string>, body: string) {
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers, body });
  const reader = response.body!.getReader();
  await reader.read();
  const milliseconds = performance.now() - started;
  while (!(await reader.read()).done);
  return { milliseconds, status: response.status, verdict: response.headers.get('x-warpfold-verdict') ?? '' };
}

/** Each session's 60 requests, in order; the sessions side by side. */
async function replay(
  url: string,
  headersOf: (session: number) => Record<string, string>,
): Promise<{ times: number[]; errors: number; statuses: Record<string, number>; folded: number }> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let folded = 0;
  await Promise.all(
    Array.from({ length: GATEWAY_SESSIONS }, async (_, session) => {
      const sessionId = `00000000-0000-4000-8000-${String(session).padStart(12, '0')}`;
      for (let step = 1; step <= GATEWAY_STEPS; step++) {
        const body = JSON.stringify(claudeCodeBody(step, sessionId, OUTPUT_SCALE));
        const result = await timeToFirstByte(url, headersOf(session), body);
        if (result.status !== 200) {
          errors++;
          statuses[result.status] = (statuses[result.status] ?? 0) + 1;
        }
        if (result.verdict.startsWith('folded')) folded++;
        times.push(result.milliseconds);
      }
    }),
  );
  return { times, errors, statuses, folded };
}

/**
 * The gateway run of `npm run bench:worker`: direct first, then through `wrangler dev`, then the
 * heap of one session object near MAX_SESSION_BYTES.
 */
export async function gatewayRun(directory: string, maxSessionBytes: number): Promise<GatewayBenchResult> {
  const provider = await startStandIn();
  const token = randomBytes(24).toString('base64url');
  await mkdir(directory, { recursive: true });
  const envFile = join(directory, '.dev.vars');
  await writeFile(envFile, `WARPFOLD_TOKEN=${token}\n`);
  const server = await startWranglerDev({
    persistTo: join(directory, 'state'),
    envFile,
    vars: { ANTHROPIC_UPSTREAM: provider.url, RATE_LIMIT_REQUESTS: '1000000000' },
  });
  try {
    const base = { ...CLAUDE_HEADERS };
    const direct = await replay(`${provider.url}/v1/messages?beta=true`, () => base);
    const through = await replay(`${server.url}/anthropic/v1/messages?beta=true`, () => ({
      ...base,
      'x-warpfold-token': token,
      'x-warpfold-ceiling': String(GATEWAY_CEILING),
    }));
    const baseline = await isolateHeapUsage(server.inspectorPort);
    // the largest Claude Code session under MAX_SESSION_BYTES: the object folds it and holds it warm
    let steps = 60;
    while (JSON.stringify(claudeCodeBody(steps * 2)).length < maxSessionBytes * 0.9) steps *= 2;
    while (JSON.stringify(claudeCodeBody(steps + 100)).length < maxSessionBytes * 0.95) steps += 100;
    const limitBody = JSON.stringify(claudeCodeBody(steps, '00000000-0000-4000-8000-00000000ffff'));
    const atLimit = await timeToFirstByte(
      `${server.url}/anthropic/v1/messages?beta=true`,
      { ...base, 'x-warpfold-token': token, 'x-warpfold-ceiling': String(GATEWAY_CEILING) },
      limitBody,
    );
    if (!atLimit.verdict.startsWith('folded'))
      throw new Error(`the session at the limit was not folded: ${atLimit.verdict}`);
    const loaded = await isolateHeapUsage(server.inspectorPort);
    const p50 = (values: number[]) => percentile(values, 0.5);
    const p99 = (values: number[]) => percentile(values, 0.99);
    return {
      sessions: GATEWAY_SESSIONS,
      steps: GATEWAY_STEPS,
      ceiling: GATEWAY_CEILING,
      requests: through.times.length,
      errors: through.errors + direct.errors,
      errorStatuses: Object.fromEntries([
        ...Object.entries(direct.statuses).map(([status, count]) => [`direct ${status}`, count]),
        ...Object.entries(through.statuses).map(([status, count]) => [`gateway ${status}`, count]),
      ]),
      foldedShare: Math.round((through.folded / through.times.length) * 1000) / 1000,
      directTtfbP50Milliseconds: p50(direct.times),
      directTtfbP99Milliseconds: p99(direct.times),
      gatewayTtfbP50Milliseconds: p50(through.times),
      gatewayTtfbP99Milliseconds: p99(through.times),
      addedTtfbP50Milliseconds: Math.round((p50(through.times) - p50(direct.times)) * 10) / 10,
      addedTtfbP99Milliseconds: Math.round((p99(through.times) - p99(direct.times)) * 10) / 10,
      limitMessages: 2 * steps - 1,
      limitRequestMegabytes: megabytes(limitBody.length),
      heapBaselineMegabytes: megabytes(baseline.usedBytes),
      heapWithSessionMegabytes: megabytes(loaded.usedBytes),
      heapAddedMegabytes: megabytes(loaded.usedBytes - baseline.usedBytes),
    };
  } finally {
    await server.stop();
    await provider.close();
  }
}
