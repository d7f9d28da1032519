// The storage table of `npm run bench`: per backend, episodes recorded (`episodes.put`, batches of 10)
// and recalled by path (`findByPaths([path], { limit: 10 })`) per second over 10,000 episodes, and the
// time to save and load a 1,000-message session (its saved fold state alone, and with the history
// beside it). Each backend runs in its own runtime: memory and fake-indexeddb in Node, IndexedDB in
// Debian chromium through Playwright, the Durable Object and KV stores in workerd through wrangler's
// local runtime. Writes bench/out/storage.{json,md} (gitignored) unless --out is given.
//
//   npx tsx bench/storage.ts [--smoke] [--out DIR] [--backends memory,fake-indexeddb,chromium-indexeddb,durable-object,kv]
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { unstable_startWorker } from 'wrangler';
import { chromiumLaunchOptions } from '../chromium-launch-options.ts';
import { createIndexedDbStore } from '../src/storage/indexeddb.ts';
import { createMemoryStore } from '../src/storage/memory.ts';
import { nameList, parseArguments } from './cli/arguments.ts';
import { measuredOn, type MeasuredOn } from './cli/environment.ts';
import { isMainModule } from './cli/is-main.ts';
import { formatInteger, markdownTable } from './cli/markdown-table.ts';
import { writeResults } from './cli/write-results.ts';
import { RUN_OUTPUT } from './cli/paths.ts';
import {
  inProcess,
  measureStorage,
  type StorageMeasurement,
  type StoragePhase,
  type StorageWorkload,
} from './storage/measure.ts';
import { STORAGE_BENCH_BATCH, STORAGE_BENCH_RECALL_LIMIT, STORAGE_BENCH_SESSION_ROUNDS } from './storage/settings.ts';
import { benchEpisodes, benchRecallPaths, benchSession } from './storage/workload.ts';

export const STORAGE_BACKENDS = ['memory', 'fake-indexeddb', 'chromium-indexeddb', 'durable-object', 'kv'] as const;
export type StorageBackendName = (typeof STORAGE_BACKENDS)[number];

const RUNTIMES: Record<StorageBackendName, string> = {
  memory: 'Node',
  'fake-indexeddb': 'Node (fake-indexeddb)',
  'chromium-indexeddb': 'Chromium (Playwright)',
  'durable-object': 'workerd (wrangler local, SQLite)',
  kv: 'workerd (wrangler local)',
};

export interface StorageRow extends StorageMeasurement {
  readonly backend: StorageBackendName;
  readonly runtime: string;
}

export interface StorageReport {
  readonly kind: 'storage';
  readonly episodes: number;
  readonly recalls: number;
  readonly sessionMessages: number;
  readonly rows: StorageRow[];
  readonly failures: Array<{ backend: StorageBackendName; error: string }>;
  /** Requests to the workerd runtime run again after a connection reset, per backend. */
  readonly retries: Record<string, number>;
  readonly measuredOn: MeasuredOn;
}

export interface StorageBenchOptions {
  readonly smoke?: boolean;
  readonly backends?: readonly StorageBackendName[];
  readonly log?: (line: string) => void;
}

async function inFakeIndexedDb(workload: StorageWorkload): Promise<StorageMeasurement> {
  // IndexedDB's globals for this Node process, only where there are none; nothing else here uses them
  const fake = (await import('fake-indexeddb')) as unknown as Record<string, unknown>;
  const globals = globalThis as Record<string, unknown>;
  for (const name of [
    'indexedDB',
    'IDBCursor',
    'IDBCursorWithValue',
    'IDBDatabase',
    'IDBFactory',
    'IDBIndex',
    'IDBKeyRange',
    'IDBObjectStore',
    'IDBOpenDBRequest',
    'IDBRequest',
    'IDBTransaction',
    'IDBVersionChangeEvent',
  ])
    globals[name] ??= fake[name];
  const storage = createIndexedDbStore({ name: `warpfold-bench-${Date.now().toString(36)}` });
  try {
    return await measureStorage(workload, inProcess(storage));
  } finally {
    storage.close();
  }
}

async function inChromium(workload: StorageWorkload): Promise<StorageMeasurement> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./storage/browser-entry.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    charset: 'utf8',
  });
  const browser = await chromium.launch({ ...chromiumLaunchOptions, headless: true });
  try {
    const page = await browser.newPage();
    // a loopback origin (a secure context, as IndexedDB pages usually are) answered by Playwright
    // itself: nothing listens on the port and no request leaves the browser
    await page.route('http://127.0.0.1:9/**', (route) =>
      route.request().url().endsWith('/bench.js')
        ? route.fulfill({ contentType: 'text/javascript', body: bundle.outputFiles[0].text })
        : route.fulfill({
            contentType: 'text/html',
            body: '<!doctype html><script type="module" src="/bench.js"></script>',
          }),
    );
    await page.goto('http://127.0.0.1:9/');
    await page.waitForFunction(() => typeof window.runStorageBench === 'function');
    return await page.evaluate(
      (text) => window.runStorageBench!(JSON.parse(text) as StorageWorkload),
      JSON.stringify(workload),
    );
  } finally {
    await browser.close();
  }
}

/** Episodes per request to the bench worker (and a tenth as many recalls). */
const WORKERD_SLICE = 1_000;
const WORKERD_ATTEMPTS = 4;
/** Slices run again per backend after the local runtime reset a connection. */
const retries = new Map<string, number>();

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** Starts the bench worker once and measures each backend in it; `each` gets every backend's own outcome. */
async function inWorkerd(
  workload: StorageWorkload,
  backends: readonly ('durable-object' | 'kv')[],
  log: (line: string) => void,
  each: (backend: 'durable-object' | 'kv', measure: () => Promise<StorageMeasurement>) => Promise<void>,
): Promise<void> {
  process.env.WRANGLER_SEND_METRICS ??= 'false';
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';
  const worker = await unstable_startWorker({
    config: fileURLToPath(new URL('./storage/wrangler.toml', import.meta.url)),
    dev: {
      server: { hostname: '127.0.0.1', port: 0 },
      inspector: false,
      persist: false,
      watch: false,
      logLevel: (process.env.WARPFOLD_BENCH_WRANGLER_LOG ?? 'error') as 'error',
    },
  });
  try {
    await worker.ready;
    const base = await worker.url;
    for (const backend of backends) {
      log(`storage: ${backend} in workerd`);
      const run = `run-${Date.now().toString(36)}`;
      // a Worker's clock stands still during compute: each phase is timed here around its requests;
      // record and recall go in slices so no single request runs for minutes
      const request = async (work: StoragePhase) => {
        const response = await worker.fetch(new URL(`/${backend}?run=${run}`, base), {
          method: 'POST',
          body: JSON.stringify(work),
        });
        if (!response.ok) throw new Error(`${backend} ${work.phase}: HTTP ${response.status} ${await response.text()}`);
        return ((await response.json()) as { count: number }).count;
      };
      const slices = (work: StoragePhase): StoragePhase[] => {
        if (work.phase === 'record')
          return chunk(work.episodes, WORKERD_SLICE).map((episodes) => ({ phase: 'record', episodes }));
        if (work.phase === 'recall')
          return chunk(work.paths, WORKERD_SLICE / 10).map((paths) => ({ phase: 'recall', paths }));
        return [work];
      };
      // wrangler's local KV simulator now and then resets a connection under sustained load (503
      // "worker restarted mid-request"); a slice is idempotent, so it is run again and only the
      // attempt that completed is timed. Retries are counted in the report.
      const timePhase = async (work: StoragePhase) => {
        let seconds = 0;
        let count = 0;
        for (const slice of slices(work)) {
          for (let attempt = 1; ; attempt++) {
            const started = performance.now();
            try {
              count += await request(slice);
              seconds += (performance.now() - started) / 1000;
              break;
            } catch (error) {
              if (attempt >= WORKERD_ATTEMPTS || !String(error).includes('restarted mid-request')) throw error;
              retries.set(backend, (retries.get(backend) ?? 0) + 1);
            }
          }
        }
        return { seconds, count };
      };
      await each(backend, () => measureStorage(workload, timePhase));
    }
  } finally {
    await worker.dispose();
  }
}

export async function runStorageBench(options: StorageBenchOptions = {}): Promise<StorageReport> {
  const log = options.log ?? ((line: string) => console.error(line));
  const backends = options.backends ?? STORAGE_BACKENDS;
  const smoke = options.smoke === true;
  log('storage: generating 10,000 episodes and a 1,000-message session');
  const session = benchSession(smoke ? 200 : undefined);
  const workload: StorageWorkload = {
    episodes: benchEpisodes(smoke ? 500 : undefined),
    recallPaths: benchRecallPaths(smoke ? 100 : undefined),
    state: session.state,
    stateWithHistory: session.stateWithHistory,
  };
  const rows: StorageRow[] = [];
  const failures: StorageReport['failures'] = [];
  const add = (backend: StorageBackendName, measurement: StorageMeasurement) =>
    rows.push({ backend, runtime: RUNTIMES[backend], ...measurement });
  const attempt = async (backend: StorageBackendName, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      failures.push({ backend, error: error instanceof Error ? error.message : String(error) });
      log(`storage: ${backend} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  for (const backend of backends) {
    if (backend === 'memory')
      await attempt(backend, async () => add(backend, await measureStorage(workload, inProcess(createMemoryStore()))));
    if (backend === 'fake-indexeddb') await attempt(backend, async () => add(backend, await inFakeIndexedDb(workload)));
    if (backend === 'chromium-indexeddb') await attempt(backend, async () => add(backend, await inChromium(workload)));
  }
  const edge = backends.filter(
    (backend): backend is 'durable-object' | 'kv' => backend === 'durable-object' || backend === 'kv',
  );
  if (edge.length > 0)
    await attempt(edge[0], () =>
      inWorkerd(workload, edge, log, (backend, measure) => attempt(backend, async () => add(backend, await measure()))),
    );
  for (const row of rows)
    log(`storage: ${row.backend} record ${row.recordPerSecond}/s recall ${row.recallPerSecond}/s`);
  return {
    kind: 'storage',
    episodes: workload.episodes.length,
    recalls: workload.recallPaths.length,
    sessionMessages: session.messages,
    rows,
    failures,
    retries: Object.fromEntries(retries),
    measuredOn: measuredOn(),
  };
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function storageTable(report: StorageReport): string {
  const first = report.rows[0];
  const header = [
    'backend',
    'runtime',
    'record (episodes/s)',
    'recall by path (calls/s)',
    `state save (ms)`,
    `state load (ms)`,
    'state + history save (ms)',
    'state + history load (ms)',
  ];
  const table = markdownTable(
    header,
    report.rows.map((row) => [
      row.backend,
      row.runtime,
      formatInteger(row.recordPerSecond),
      formatInteger(row.recallPerSecond),
      row.session.saveMilliseconds,
      row.session.loadMilliseconds,
      row.sessionWithHistory.saveMilliseconds,
      row.sessionWithHistory.loadMilliseconds,
    ]),
  );
  const notes = [
    `${formatInteger(report.episodes)} episodes recorded in batches of ${STORAGE_BENCH_BATCH}, then ${formatInteger(report.recalls)} recalls of one path each (limit ${STORAGE_BENCH_RECALL_LIMIT}, ${first?.recallHits ?? '—'} episodes found per recall).`,
    first
      ? `Session: ${report.sessionMessages} messages; its saved fold state is ${kilobytes(first.session.bytes)}, with the history beside it ${kilobytes(first.sessionWithHistory.bytes)}; mean of ${STORAGE_BENCH_SESSION_ROUNDS} saves (with expectedVersion) and ${STORAGE_BENCH_SESSION_ROUNDS} loads.`
      : '',
    "workerd rows are timed from Node around one request per phase (a Worker's clock stands still during compute), so they include one local HTTP round trip per request (1,000 episodes or 100 recalls per request); KV is the local simulator, not the edge.",
    ...Object.entries(report.retries).map(
      ([backend, count]) =>
        `${backend}: ${count} request(s) run again after wrangler's local runtime reset a connection (only completed attempts are timed).`,
    ),
    ...report.failures.map((failure) => `${failure.backend} could not run: ${failure.error}`),
  ].filter(Boolean);
  return `${table}\n\n${notes.map((note) => `- ${note}`).join('\n')}`;
}

export function storageMarkdown(report: StorageReport): string {
  return `# Storage bench\n\n${storageTable(report)}\n\nMeasured on ${report.measuredOn.cpu} (${report.measuredOn.cores} cores), Node ${report.measuredOn.node}.\n`;
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  const backends = nameList(parsed.backends, STORAGE_BACKENDS).map((name) => {
    if (!(STORAGE_BACKENDS as readonly string[]).includes(name))
      throw new Error(`unknown backend "${name}"; known: ${STORAGE_BACKENDS.join(', ')}`);
    return name as StorageBackendName;
  });
  const report = await runStorageBench({ smoke: parsed.smoke === 'true', backends });
  writeResults(parsed.out ?? RUN_OUTPUT, 'storage', report, storageMarkdown(report));
  console.log(`\n## Storage\n\n${storageTable(report)}`);
}

if (isMainModule(import.meta.url)) await main();
