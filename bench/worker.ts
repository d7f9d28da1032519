// Load on the edge endpoint: `wrangler dev` on loopback, driven over HTTP with bounded
// concurrency and duration. For sessions of 100 and 1,000 messages: requests/s and p50/p99 of
// `prepare`, appending to a warm Durable Object and cold (the object forgot its memory, so the call
// restores history and fold state from SQLite first). Then one session at the size limit
// (MAX_SESSION_MESSAGES): the isolate's heap through the inspector while the object holds it and
// after it dropped it (which must come back near its start), the time of an append warm and cold,
// and the load time after a restart of wrangler dev.
//
//   npm run bench:worker [-- --concurrency 4 --seconds 8 --sizes 100,1000 --limit-messages 20000 --update]
//
// Writes bench/out/worker.{json,md} (gitignored); with --update, bench/results/worker.{json,md}.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWranglerDev, type WranglerDev } from '../test/helpers/wrangler-dev-process.ts';
import { numberList, parseArguments } from './cli/arguments.ts';
import { measuredOn, type MeasuredOn } from './cli/environment.ts';
import { formatInteger, markdownTable } from './cli/markdown-table.ts';
import { writeResults } from './cli/write-results.ts';
import { DEFAULT_MAX_SESSION_BYTES, DEFAULT_MAX_SESSION_MESSAGES } from '../worker/worker-config.ts';
import { continuation, forget, loadSession, post, syntheticHistory, type Endpoint } from './worker/bench-session.ts';
import { type GatewayBenchResult, gatewayRun } from './worker/gateway-run.ts';
import { isolateHeapUsage } from './worker/inspector-heap.ts';
import { workerdResidentBytes } from './worker/workerd-memory.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const RUN_OUTPUT = join(ROOT, 'bench/out');
const COMMITTED_RESULTS = join(ROOT, 'bench/results');

/** The scale bench's ceiling, so the two benches fold alike. */
const CEILING = 16_000;
/** Each session grows by at most a tenth of its size during a run, so "100 messages" stays about 100. */
const GROWTH_FRACTION = 0.1;
/** Enough sessions per client that a run is bounded by time, not by sessions running out. */
const SESSIONS_PER_CLIENT: Record<number, number> = { 100: 24, 1000: 1 };

type Mode = 'append' | 'cold';

export interface WorkerLoadRow {
  readonly messages: number;
  readonly mode: Mode;
  readonly concurrency: number;
  readonly requests: number;
  readonly errors: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50Milliseconds: number;
  readonly p99Milliseconds: number;
  /** The most a session grew during the run, in messages. */
  readonly maxGrowthMessages: number;
}

export interface WorkerLimitResult {
  readonly messages: number;
  readonly maxSessionMessages: number;
  readonly maxSessionBytes: number;
  readonly rawJsonMegabytes: number;
  readonly viewTokens: number;
  readonly heapBaselineMegabytes: number;
  /** The isolate's live heap while the object holds the session warm (its live fold and raw history). */
  readonly heapWithSessionMegabytes: number;
  /** What the one Durable Object holding the session adds to the isolate's live heap. */
  readonly sessionHeapMegabytes: number;
  /** After the object dropped the session (its `forget` step, as after SESSION_WARM_SECONDS). */
  readonly heapAfterDropMegabytes: number;
  /** The drop gave back all but this much of what the session added. */
  readonly heapNotGivenBackMegabytes: number;
  /** Median of appends of one turn to the warm object. */
  readonly warmAppendMilliseconds: number;
  /** Median of appends of one turn right after the object dropped the session: history and fold state read back from SQLite. */
  readonly coldAppendMilliseconds: number;
  /** After a restart of wrangler dev: the session summary (reads no history), then the first append (reads it all). */
  readonly restartSummaryMilliseconds: number;
  readonly restartFirstAppendMilliseconds: number;
  readonly heapAfterRestartAppendMegabytes: number;
  readonly workerdRssBaselineMegabytes: number | null;
  readonly workerdRssWithSessionMegabytes: number | null;
  /** The answer to an append past the limit. */
  readonly overLimitStatus: number;
  readonly isolateLimitMegabytes: number;
}

export interface WorkerBenchReport {
  readonly kind: 'worker';
  readonly ceiling: number;
  readonly rows: WorkerLoadRow[];
  /** Absent when the run was `--gateway only`. */
  readonly limit?: WorkerLimitResult;
  /** The fold gateway's run; absent with `--gateway skip`. */
  readonly gateway?: GatewayBenchResult;
  readonly measuredOn: MeasuredOn;
  /** One-minute load average when the run began: other work on the machine inflates every latency. */
  readonly loadAverage: number;
}

const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

function percentile(sorted: readonly number[], fraction: number): number {
  if (!sorted.length) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] * 10) / 10;
}

async function startServer(directory: string, token: string, vars: Record<string, string> = {}): Promise<WranglerDev> {
  await mkdir(directory, { recursive: true });
  const envFile = join(directory, '.dev.vars');
  await writeFile(envFile, `WARPFOLD_TOKEN=${token}\n`);
  return startWranglerDev({
    persistTo: join(directory, 'state'),
    envFile,
    // the bench measures folding, not the limiter
    vars: { RATE_LIMIT_REQUESTS: '1000000000', WARPFOLD_BENCH_HOOKS: '1', ...vars },
  });
}

async function loadRun(
  endpoint: Endpoint,
  size: number,
  mode: Mode,
  concurrency: number,
  seconds: number,
): Promise<WorkerLoadRow> {
  const perClient = SESSIONS_PER_CLIENT[size] ?? Math.max(1, Math.round(2_400 / size));
  const maxTurns = Math.max(1, Math.floor((size * GROWTH_FRACTION) / 3));
  const options = { pressureCeiling: CEILING };
  const clients = await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      const sessions = [];
      for (let index = 0; index < perClient; index++) {
        const seed = 1 + client * 1_000 + index;
        const id = `bench-${mode}-${size}-${client}-${index}`;
        const digest = await loadSession(endpoint, id, syntheticHistory(size, seed), options);
        sessions.push({ id, digest, turns: 0, next: continuation(size, maxTurns, seed), offset: 0 });
      }
      return sessions;
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  let maxGrowth = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    clients.map(async (sessions) => {
      for (let round = 0; performance.now() < deadline; round++) {
        const open = sessions.filter(
          (candidate) => candidate.turns < maxTurns && candidate.offset < candidate.next.length,
        );
        if (!open.length) break;
        const session = open[round % open.length];
        const append = session.next.slice(session.offset, session.offset + 3);
        if (mode === 'cold') await forget(endpoint, session.id);
        const before = performance.now();
        const response = await post(endpoint, `/v1/sessions/${session.id}/prepare`, {
          append,
          prefixDigest: session.digest,
        });
        const text = await response.text();
        latencies.push(performance.now() - before);
        if (!response.ok) {
          errors++;
          break;
        }
        session.digest = (JSON.parse(text) as { digest: string }).digest;
        session.offset += append.length;
        session.turns++;
        maxGrowth = Math.max(maxGrowth, session.offset);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  // every object of the worker shares one isolate locally: let this run's sessions go before the next
  for (const sessions of clients) for (const session of sessions) await forget(endpoint, session.id);
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    messages: size,
    mode,
    concurrency,
    requests: latencies.length,
    errors,
    seconds: Math.round(elapsed * 10) / 10,
    requestsPerSecond: Math.round((latencies.length / elapsed) * 10) / 10,
    p50Milliseconds: percentile(sorted, 0.5),
    p99Milliseconds: percentile(sorted, 0.99),
    maxGrowthMessages: maxGrowth,
  };
}

const median = (values: readonly number[]): number =>
  Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] * 10) / 10;

/** The drop must give back all but this much of what the session added (heap snapshots differ by a little). */
const NOT_GIVEN_BACK_TOLERANCE_MEGABYTES = 2;

async function timed(work: () => Promise<Response>): Promise<{ milliseconds: number; response: Response }> {
  const started = performance.now();
  const response = await work();
  if (!response.ok && response.status !== 413) throw new Error(`${response.status} ${await response.text()}`);
  const body = await response.text();
  return { milliseconds: performance.now() - started, response: new Response(body, { status: response.status }) };
}

async function limitRun(directory: string, token: string, limitMessages: number): Promise<WorkerLimitResult> {
  // the object stays warm through the measurement; `forget` drops it as SESSION_WARM_SECONDS would
  const vars = { MAX_SESSION_MESSAGES: String(limitMessages), SESSION_WARM_SECONDS: '3600' };
  let server = await startServer(directory, token, vars);
  try {
    let endpoint = { url: server.url, token };
    const group = server.process.pid ?? -1;
    // warm the isolate (modules, the app, one small object) so the baseline holds all but the session
    await loadSession(endpoint, 'memory-warmup', syntheticHistory(40, 3), { pressureCeiling: CEILING });
    await forget(endpoint, 'memory-warmup');
    const baseline = await isolateHeapUsage(server.inspectorPort);
    const rssBaseline = await workerdResidentBytes(group);
    const turns = 8;
    const full = syntheticHistory(limitMessages, 11);
    // a session `turns` turns short of the limit, so that each measured append fits
    const messages = limitMessages - turns * 3;
    const history = full.slice(0, messages);
    let digest = await loadSession(endpoint, 'limit', history, { pressureCeiling: CEILING });
    let length = messages;
    const appendTurn = async () => {
      const { milliseconds, response } = await timed(() =>
        post(endpoint, '/v1/sessions/limit/prepare', { append: full.slice(length, length + 3), prefixDigest: digest }),
      );
      const result = (await response.json()) as { digest: string; length: number; stats: { viewTokens: number } };
      digest = result.digest;
      length = result.length;
      return { milliseconds, viewTokens: result.stats.viewTokens };
    };
    const warm: number[] = [];
    let viewTokens = 0;
    for (let i = 0; i < 3; i++) {
      const turn = await appendTurn();
      warm.push(turn.milliseconds);
      viewTokens = turn.viewTokens;
    }
    const loaded = await isolateHeapUsage(server.inspectorPort);
    const rssLoaded = await workerdResidentBytes(group);
    await forget(endpoint, 'limit');
    const dropped = await isolateHeapUsage(server.inspectorPort);
    const cold: number[] = [];
    for (let i = 0; i < 3; i++) {
      await forget(endpoint, 'limit');
      cold.push((await appendTurn()).milliseconds);
    }
    await server.stop();
    server = await startServer(directory, token, vars);
    endpoint = { url: server.url, token };
    const summary = await timed(() =>
      fetch(`${endpoint.url}/v1/sessions/limit`, { headers: { Authorization: `Bearer ${token}` } }),
    );
    const firstAppend = await appendTurn();
    const afterRestart = await isolateHeapUsage(server.inspectorPort);
    const over = await post(endpoint, '/v1/sessions/limit/prepare', {
      append: full.slice(length, length + 3).concat(full.slice(0, 3)),
      prefixDigest: digest,
    });
    const overLimitStatus = over.status;
    await over.text();
    const notGivenBack = megabytes(dropped.usedBytes - baseline.usedBytes);
    const result: WorkerLimitResult = {
      messages: length,
      maxSessionMessages: limitMessages,
      maxSessionBytes: DEFAULT_MAX_SESSION_BYTES,
      rawJsonMegabytes: megabytes(Buffer.byteLength(JSON.stringify(full.slice(0, length)))),
      viewTokens,
      heapBaselineMegabytes: megabytes(baseline.usedBytes),
      heapWithSessionMegabytes: megabytes(loaded.usedBytes),
      sessionHeapMegabytes: megabytes(loaded.usedBytes - baseline.usedBytes),
      heapAfterDropMegabytes: megabytes(dropped.usedBytes),
      heapNotGivenBackMegabytes: notGivenBack,
      warmAppendMilliseconds: median(warm),
      coldAppendMilliseconds: median(cold),
      restartSummaryMilliseconds: Math.round(summary.milliseconds * 10) / 10,
      restartFirstAppendMilliseconds: Math.round(firstAppend.milliseconds * 10) / 10,
      heapAfterRestartAppendMegabytes: megabytes(afterRestart.usedBytes),
      workerdRssBaselineMegabytes: rssBaseline === null ? null : megabytes(rssBaseline),
      workerdRssWithSessionMegabytes: rssLoaded === null ? null : megabytes(rssLoaded),
      overLimitStatus,
      isolateLimitMegabytes: 128,
    };
    if (notGivenBack > NOT_GIVEN_BACK_TOLERANCE_MEGABYTES)
      throw new Error(
        `the heap did not come back after the session was dropped: ${result.heapBaselineMegabytes} MB before, ${result.heapWithSessionMegabytes} MB with it, ${result.heapAfterDropMegabytes} MB after`,
      );
    if (overLimitStatus !== 413)
      throw new Error(`an append past the session limit answered ${overLimitStatus}, not 413`);
    return result;
  } finally {
    await server.stop();
  }
}

/** Goals of the gateway run (issue: the edge gateway): added time to first byte, and the object's heap at the limit. */
const GATEWAY_GOALS = { addedP50: 50, addedP99: 250, heapMegabytes: 64 };

function renderGateway(gateway: GatewayBenchResult): string {
  const met = (value: number, goal: number) => (value <= goal ? `met (≤ ${goal})` : `missed (≤ ${goal})`);
  return [
    '## Fold gateway',
    '',
    `${gateway.sessions} sessions at once, each replaying a ${gateway.steps}-step Claude Code session (the whole history every call, 14–29 KB tool outputs, its three cache marks) at a ${formatInteger(gateway.ceiling)} ceiling through \`wrangler dev\`'s \`/anthropic/v1/messages\`, against a stand-in provider on loopback reached directly (it reads the body and answers a stream at once). Time to first byte of the answer's body; the added time is the gateway's percentile less the direct one. ${formatInteger(gateway.requests)} requests through the gateway, ${gateway.errors} errors${
      gateway.errors > 0
        ? ` (${Object.entries(gateway.errorStatuses ?? {})
            .map(([status, count]) => `${count} × ${status}`)
            .join(', ')})`
        : ''
    }, ${(gateway.foldedShare * 100).toFixed(1)}% folded.`,
    '',
    markdownTable(
      ['', 'direct ms', 'through the gateway ms', 'added ms', 'goal'],
      [
        [
          'TTFB p50',
          gateway.directTtfbP50Milliseconds,
          gateway.gatewayTtfbP50Milliseconds,
          gateway.addedTtfbP50Milliseconds,
          met(gateway.addedTtfbP50Milliseconds, GATEWAY_GOALS.addedP50),
        ],
        [
          'TTFB p99',
          gateway.directTtfbP99Milliseconds,
          gateway.gatewayTtfbP99Milliseconds,
          gateway.addedTtfbP99Milliseconds,
          met(gateway.addedTtfbP99Milliseconds, GATEWAY_GOALS.addedP99),
        ],
      ],
    ),
    '',
    `One gateway session near MAX_SESSION_BYTES (${formatInteger(gateway.limitMessages)} messages, a ${gateway.limitRequestMegabytes} MB request), folded and held warm by its object: the isolate's live heap (after a full collection) is ${gateway.heapWithSessionMegabytes} MB against ${gateway.heapBaselineMegabytes} MB before, ${gateway.heapAddedMegabytes} MB added: ${met(gateway.heapAddedMegabytes, GATEWAY_GOALS.heapMegabytes)} MB.`,
    '',
  ].join('\n');
}

export function renderWorkerBench(report: WorkerBenchReport): string {
  const rows = report.rows.map((row) => [
    formatInteger(row.messages),
    row.mode,
    row.concurrency,
    formatInteger(row.requests),
    row.errors,
    row.requestsPerSecond.toFixed(1),
    row.p50Milliseconds.toFixed(1),
    row.p99Milliseconds.toFixed(1),
    `+${row.maxGrowthMessages}`,
  ]);
  const limit = report.limit;
  const gatewaySection = report.gateway === undefined ? '' : renderGateway(report.gateway);
  if (limit === undefined)
    return [
      '# Edge endpoint under load',
      '',
      `\`wrangler dev\` on 127.0.0.1 (workerd from npm), driven over loopback HTTP by \`npm run bench:worker -- --gateway only\`; Node ${report.measuredOn.node}, ${report.measuredOn.cores} cores (${report.measuredOn.cpu}), load average ${report.loadAverage} when the run began.`,
      '',
      gatewaySection,
    ].join('\n');
  return [
    '# Edge endpoint under load',
    '',
    `\`wrangler dev\` on 127.0.0.1 (workerd from npm), driven over loopback HTTP by \`npm run bench:worker\`; ceiling ${formatInteger(report.ceiling)} tokens; Node ${report.measuredOn.node}, ${report.measuredOn.cores} cores (${report.measuredOn.cpu}), load average ${report.loadAverage} when the run began.`,
    "Each request is `POST /v1/sessions/:id/prepare` appending one turn (up to 3 messages) with its `prefixDigest`. *append*: the session's Durable Object is warm. *cold*: the object was told to drop its memory just before (an untimed call), so the request first reads the raw history and the saved fold state back from SQLite and restores the FoldSession, the work a Durable Object does after an eviction or once SESSION_WARM_SECONDS have passed (the instance itself stays: workerd offers no reset the worker can call).",
    '',
    markdownTable(
      ['messages', 'mode', 'clients', 'requests', 'errors', 'requests/s', 'p50 ms', 'p99 ms', 'session growth'],
      rows,
    ),
    '',
    `## One session at the size limit (${formatInteger(limit.maxSessionMessages)} messages)`,
    '',
    `One Durable Object holds a synthetic session ${formatInteger(limit.maxSessionMessages - limit.messages)} messages short of MAX_SESSION_MESSAGES (${formatInteger(limit.messages)} messages, ${limit.rawJsonMegabytes} MB of raw JSON, under MAX_SESSION_BYTES of ${megabytes(limit.maxSessionBytes)} MB; view ${formatInteger(limit.viewTokens)} tokens). The isolate's live heap is read through the V8 inspector of \`wrangler dev\` after a heap snapshot (which collects garbage fully first). *with session*: the object holds it warm, its live fold and the raw history the engine keeps, as during and right after a call. *after drop*: the object dropped it (\`forget\`, what SESSION_WARM_SECONDS does after the last call); the bench fails unless this comes back within ${NOT_GIVEN_BACK_TOLERANCE_MEGABYTES} MB of the baseline. An append past the limit answered ${limit.overLimitStatus}.`,
    '',
    markdownTable(
      [
        'heap baseline MB',
        'heap with session MB',
        'session adds MB',
        'heap after drop MB',
        'not given back MB',
        'isolate limit MB',
        'workerd RSS baseline MB',
        'workerd RSS with session MB',
      ],
      [
        [
          limit.heapBaselineMegabytes,
          limit.heapWithSessionMegabytes,
          limit.sessionHeapMegabytes,
          limit.heapAfterDropMegabytes,
          limit.heapNotGivenBackMegabytes,
          limit.isolateLimitMegabytes,
          limit.workerdRssBaselineMegabytes,
          limit.workerdRssWithSessionMegabytes,
        ],
      ],
    ),
    '',
    'Time of one append (median of 3), warm and cold, and after a restart of `wrangler dev` over the same state: the summary (`GET /v1/sessions/:id`, which reads the record only) and the first append (which reads the whole history back from SQLite and restores the fold), with the heap after it.',
    '',
    markdownTable(
      [
        'warm append ms',
        'cold append ms',
        'after restart: summary ms',
        'after restart: first append ms',
        'heap after it MB',
      ],
      [
        [
          limit.warmAppendMilliseconds,
          limit.coldAppendMilliseconds,
          limit.restartSummaryMilliseconds,
          limit.restartFirstAppendMilliseconds,
          limit.heapAfterRestartAppendMegabytes,
        ],
      ],
    ),
    '',
    gatewaySection,
  ].join('\n');
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2));
  const concurrency = Number(args.concurrency ?? 4);
  const seconds = Number(args.seconds ?? 8);
  const sizes = args.sizes === 'none' ? [] : numberList(args.sizes, [100, 1_000]);
  const limitMessages = Number(args['limit-messages'] ?? DEFAULT_MAX_SESSION_MESSAGES);
  const token = randomBytes(24).toString('base64url');
  const loadAverage = Math.round(loadavg()[0] * 10) / 10;
  const directory = await mkdtemp(join(tmpdir(), 'warpfold-worker-bench-'));
  try {
    const gatewayMode = args.gateway ?? 'run';
    const rows: WorkerLoadRow[] = [];
    const server = sizes.length && gatewayMode !== 'only' ? await startServer(join(directory, 'load'), token) : null;
    try {
      for (const size of gatewayMode === 'only' ? [] : sizes) {
        for (const mode of ['append', 'cold'] as const) {
          const row = await loadRun({ url: server!.url, token }, size, mode, concurrency, seconds);
          rows.push(row);
          console.log(
            `${size} messages, ${mode}: ${row.requests} requests, ${row.requestsPerSecond}/s, p50 ${row.p50Milliseconds} ms, p99 ${row.p99Milliseconds} ms, errors ${row.errors}`,
          );
        }
      }
    } finally {
      await server?.stop();
    }
    const limit = gatewayMode === 'only' ? undefined : await limitRun(join(directory, 'limit'), token, limitMessages);
    const gateway =
      gatewayMode === 'skip' ? undefined : await gatewayRun(join(directory, 'gateway'), DEFAULT_MAX_SESSION_BYTES);
    if (gateway !== undefined)
      console.log(
        `gateway: TTFB added p50 ${gateway.addedTtfbP50Milliseconds} ms, p99 ${gateway.addedTtfbP99Milliseconds} ms; heap at the limit +${gateway.heapAddedMegabytes} MB`,
      );
    const report: WorkerBenchReport = {
      kind: 'worker',
      ceiling: CEILING,
      rows,
      ...(limit !== undefined ? { limit } : {}),
      ...(gateway !== undefined ? { gateway } : {}),
      measuredOn: measuredOn(),
      loadAverage,
    };
    const markdown = renderWorkerBench(report);
    const written = writeResults(args.update === 'true' ? COMMITTED_RESULTS : RUN_OUTPUT, 'worker', report, markdown);
    console.log(`\n${markdown}\nwrote ${written.markdown} and ${written.json}`);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:worker: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
