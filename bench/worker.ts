// Load on the edge endpoint: `wrangler dev` on loopback, driven over HTTP with bounded
// concurrency and duration. For sessions of 100 and 1,000 messages: requests/s and p50/p99 of
// `prepare`, appending to a warm Durable Object and cold (the object forgot its memory, so the call
// restores history and fold state from SQLite first). Then the memory of one object holding a
// 10,000-message session, read from the isolate's heap through the inspector.
//
//   npm run bench:worker [-- --concurrency 4 --seconds 8 --sizes 100,1000 --memory-messages 10000 --update]
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
import { continuation, loadSession, post, syntheticHistory, type Endpoint } from './worker/bench-session.ts';
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

export interface WorkerMemoryResult {
  readonly messages: number;
  readonly rawJsonMegabytes: number;
  readonly heapBaselineMegabytes: number;
  readonly heapWithSessionMegabytes: number;
  /** What the one Durable Object holding the session adds to the isolate's live heap. */
  readonly sessionHeapMegabytes: number;
  readonly heapAfterForgetMegabytes: number;
  readonly workerdRssBaselineMegabytes: number | null;
  readonly workerdRssWithSessionMegabytes: number | null;
  readonly isolateLimitMegabytes: number;
  readonly viewTokens: number;
}

export interface WorkerBenchReport {
  readonly kind: 'worker';
  readonly ceiling: number;
  readonly rows: WorkerLoadRow[];
  readonly memory: WorkerMemoryResult;
  readonly measuredOn: MeasuredOn;
  /** One-minute load average when the run began: other work on the machine inflates every latency. */
  readonly loadAverage: number;
}

const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

function percentile(sorted: readonly number[], fraction: number): number {
  if (!sorted.length) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] * 10) / 10;
}

async function startServer(directory: string, token: string): Promise<WranglerDev> {
  await mkdir(directory, { recursive: true });
  const envFile = join(directory, '.dev.vars');
  await writeFile(envFile, `WARPFOLD_TOKEN=${token}\n`);
  return startWranglerDev({
    persistTo: join(directory, 'state'),
    envFile,
    // the bench measures folding, not the limiter
    vars: { RATE_LIMIT_REQUESTS: '1000000000', WARPFOLD_BENCH_HOOKS: '1' },
  });
}

async function loadRun(endpoint: Endpoint, size: number, mode: Mode, concurrency: number, seconds: number): Promise<WorkerLoadRow> {
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
        const open = sessions.filter((candidate) => candidate.turns < maxTurns && candidate.offset < candidate.next.length);
        if (!open.length) break;
        const session = open[round % open.length];
        const append = session.next.slice(session.offset, session.offset + 3);
        if (mode === 'cold') await post(endpoint, `/v1/sessions/${session.id}/forget`);
        const before = performance.now();
        const response = await post(endpoint, `/v1/sessions/${session.id}/prepare`, { append, prefixDigest: session.digest });
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
  for (const sessions of clients) for (const session of sessions) await post(endpoint, `/v1/sessions/${session.id}/forget`);
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

async function memoryRun(directory: string, token: string, messages: number): Promise<WorkerMemoryResult> {
  const server = await startServer(directory, token);
  try {
    const endpoint = { url: server.url, token };
    const group = server.process.pid ?? -1;
    // warm the isolate (modules, the app, one small object) so the baseline holds all but the session
    await loadSession(endpoint, 'memory-warmup', syntheticHistory(40, 3), { pressureCeiling: CEILING });
    const baseline = await isolateHeapUsage(server.inspectorPort);
    const rssBaseline = await workerdResidentBytes(group);
    const history = syntheticHistory(messages, 11);
    await loadSession(endpoint, 'memory', history, { pressureCeiling: CEILING });
    const last = await post(endpoint, '/v1/sessions/memory/prepare', { append: [] });
    const viewTokens = ((await last.json()) as { stats: { viewTokens: number } }).stats.viewTokens;
    const loaded = await isolateHeapUsage(server.inspectorPort);
    const rssLoaded = await workerdResidentBytes(group);
    await post(endpoint, '/v1/sessions/memory/forget');
    const forgotten = await isolateHeapUsage(server.inspectorPort);
    return {
      messages,
      rawJsonMegabytes: megabytes(Buffer.byteLength(JSON.stringify(history))),
      heapBaselineMegabytes: megabytes(baseline.usedBytes),
      heapWithSessionMegabytes: megabytes(loaded.usedBytes),
      sessionHeapMegabytes: megabytes(loaded.usedBytes - baseline.usedBytes),
      heapAfterForgetMegabytes: megabytes(forgotten.usedBytes),
      workerdRssBaselineMegabytes: rssBaseline === null ? null : megabytes(rssBaseline),
      workerdRssWithSessionMegabytes: rssLoaded === null ? null : megabytes(rssLoaded),
      isolateLimitMegabytes: 128,
      viewTokens,
    };
  } finally {
    await server.stop();
  }
}

export function renderWorkerBench(report: WorkerBenchReport): string {
  const rows = report.rows.map((row) => [formatInteger(row.messages), row.mode, row.concurrency, formatInteger(row.requests), row.errors, row.requestsPerSecond.toFixed(1), row.p50Milliseconds.toFixed(1), row.p99Milliseconds.toFixed(1), `+${row.maxGrowthMessages}`]);
  const memory = report.memory;
  return [
    '# Edge endpoint under load',
    '',
    `\`wrangler dev\` on 127.0.0.1 (workerd from npm), driven over loopback HTTP by \`npm run bench:worker\`; ceiling ${formatInteger(report.ceiling)} tokens; Node ${report.measuredOn.node}, ${report.measuredOn.cores} cores (${report.measuredOn.cpu}), load average ${report.loadAverage} when the run began.`,
    'Each request is `POST /v1/sessions/:id/prepare` appending one turn (up to 3 messages) with its `prefixDigest`. *append*: the session\'s Durable Object is warm. *cold*: the object was told to drop its memory just before (an untimed call), so the request first reads the raw history and the saved fold state back from SQLite and restores the FoldSession, the work a Durable Object does after an eviction (the instance itself stays: workerd offers no reset the worker can call).',
    '',
    markdownTable(['messages', 'mode', 'clients', 'requests', 'errors', 'requests/s', 'p50 ms', 'p99 ms', 'session growth'], rows),
    '',
    `## One Durable Object holding ${formatInteger(memory.messages)} messages`,
    '',
    `The isolate's live heap, read through the V8 inspector of \`wrangler dev\` after a heap snapshot (which collects garbage fully first): ${memory.heapBaselineMegabytes} MB with the worker warmed up, ${memory.heapWithSessionMegabytes} MB while one object holds the ${formatInteger(memory.messages)}-message session (${memory.rawJsonMegabytes} MB of raw JSON; view ${formatInteger(memory.viewTokens)} tokens), ${memory.heapAfterForgetMegabytes} MB after it forgot it.`,
    '',
    markdownTable(
      ['messages', 'raw JSON MB', 'heap baseline MB', 'heap with session MB', 'session adds MB', 'isolate limit MB', 'workerd RSS baseline MB', 'workerd RSS with session MB'],
      [[formatInteger(memory.messages), memory.rawJsonMegabytes, memory.heapBaselineMegabytes, memory.heapWithSessionMegabytes, memory.sessionHeapMegabytes, memory.isolateLimitMegabytes, memory.workerdRssBaselineMegabytes, memory.workerdRssWithSessionMegabytes]],
    ),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2));
  const concurrency = Number(args.concurrency ?? 4);
  const seconds = Number(args.seconds ?? 8);
  const sizes = args.sizes === 'none' ? [] : numberList(args.sizes, [100, 1_000]);
  const memoryMessages = Number(args['memory-messages'] ?? 10_000);
  const token = randomBytes(24).toString('base64url');
  const loadAverage = Math.round(loadavg()[0] * 10) / 10;
  const directory = await mkdtemp(join(tmpdir(), 'warpfold-worker-bench-'));
  try {
    const rows: WorkerLoadRow[] = [];
    const server = sizes.length ? await startServer(join(directory, 'load'), token) : null;
    try {
      for (const size of sizes) {
        for (const mode of ['append', 'cold'] as const) {
          const row = await loadRun({ url: server!.url, token }, size, mode, concurrency, seconds);
          rows.push(row);
          console.log(`${size} messages, ${mode}: ${row.requests} requests, ${row.requestsPerSecond}/s, p50 ${row.p50Milliseconds} ms, p99 ${row.p99Milliseconds} ms, errors ${row.errors}`);
        }
      }
    } finally {
      await server?.stop();
    }
    const memory = await memoryRun(join(directory, 'memory'), token, memoryMessages);
    const report: WorkerBenchReport = { kind: 'worker', ceiling: CEILING, rows, memory, measuredOn: measuredOn(), loadAverage };
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
