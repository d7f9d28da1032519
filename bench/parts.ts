// The parts `npm run bench` runs, in order. A new part (a storage or worker bench, say) is one
// entry here: a name (its results are `<name>.json` and `<name>.md`), how to run it, its markdown
// report and the tables printed to the terminal.
import { dialectMarkdown, dialectParityTable, runDialects, type DialectReport } from './dialects.ts';
import { replayMarkdown, replaySummaryTable, runReplay, type ReplayReport } from './replay.ts';
import { existsSync } from 'node:fs';
import { FULL_CORPUS, FULL_CORPUS_SECOND } from './cli/paths.ts';
import {
  edgeSections,
  EDGE_HEAP_MESSAGES,
  growthLines,
  hugeStepTable,
  runScale,
  scaleMarkdown,
  scaleTable,
  type ScaleReport,
} from './scale.ts';
import { dialectTable, runScenario, scenarioMarkdown, scenarioTable, type ScenarioReport } from './scenario.ts';
import { runStorageBench, storageMarkdown, storageTable, type StorageReport } from './storage.ts';

/** The bundled session the smoke run replays. */
export const SMOKE_SESSION = 'msa-ds-chat-test-django__django-10914';

export interface BenchContext {
  /** A short run that only proves everything works. */
  readonly smoke: boolean;
  /** The replay's corpus folder (absolute). */
  readonly corpus: string;
  /** Where `FoldSession` comes from, and extra options for it. */
  readonly engine: { readonly enginePath?: string; readonly engineOptions?: Record<string, unknown> };
  readonly log: (line: string) => void;
}

export interface BenchPart<Report = unknown> {
  readonly name: string;
  readonly run: (context: BenchContext) => Promise<Report>;
  readonly markdown: (report: Report) => string;
  /** The heading printed above the part's tables. */
  readonly title: (report: Report) => string;
  readonly tables: (report: Report, context: BenchContext) => string;
}

/** Keeps each part's report type while listing them together. */
export const definePart = <Report>(part: BenchPart<Report>): BenchPart => part as unknown as BenchPart;

export const replayPart = definePart<ReplayReport>({
  name: 'replay',
  async run({ smoke, corpus, engine, log }) {
    log(
      smoke ? `replay: ${SMOKE_SESSION}, ceiling 8000` : `replay: every session of the corpus, ceilings 16000 and 8000`,
    );
    return runReplay({ ...engine, corpus, log, ...(smoke ? { only: [SMOKE_SESSION], ceilings: [8_000] } : {}) });
  },
  markdown: replayMarkdown,
  title: (report) => `Session replay (${report.files.length} sessions from ${report.corpus})`,
  tables: (report) => replaySummaryTable(report),
});

export const scenarioPart = definePart<ScenarioReport>({
  name: 'scenario',
  async run({ smoke, engine, log }) {
    log('scenario: outage investigation, 16 calls');
    return runScenario({ ...engine, log, ...(smoke ? { ceilings: [8_000], dialects: ['openai'] as const } : {}) });
  },
  markdown: scenarioMarkdown,
  title: () => 'Outage scenario',
  tables: (report, { smoke }) =>
    smoke ? scenarioTable(report) : `${scenarioTable(report)}\n\n${dialectTable(report)}`,
});

export const scalePart = definePart<ScaleReport>({
  name: 'scale',
  async run({ smoke, corpus, engine, log }) {
    log('scale: prepare() on long synthetic sessions, per-call latency on real sessions, heap one session retains');
    // --full times the calls of both shared corpora; otherwise the replay's folder (the bundled sessions)
    const latencyCorpora =
      corpus === FULL_CORPUS
        ? [FULL_CORPUS, ...(existsSync(FULL_CORPUS_SECOND) ? [FULL_CORPUS_SECOND] : [])]
        : [corpus];
    return runScale({
      ...engine,
      log,
      latencyCorpora,
      ...(smoke
        ? {
            turns: [20, 100],
            budgetSeconds: 30,
            hugeStepCalls: [2_000],
            latencyOnly: [SMOKE_SESSION],
            heapMessages: 400,
            longHistoryMessages: [2_000],
          }
        : { heapMessages: EDGE_HEAP_MESSAGES }),
    });
  },
  markdown: scaleMarkdown,
  title: () => 'Scale',
  tables: (report) =>
    [
      `${scaleTable(report)}\n${growthLines(report).join('\n')}`,
      ...(report.hugeSteps?.length ? [hugeStepTable(report)] : []),
      ...edgeSections(report),
    ].join('\n\n'),
});

export const storagePart = definePart<StorageReport>({
  name: 'storage',
  async run({ smoke, log }) {
    log('storage: record, recall by path and session save/load per backend');
    // the smoke run keeps to the Node backends; the full run also drives Chromium and workerd
    return runStorageBench({ log, ...(smoke ? { smoke, backends: ['memory', 'fake-indexeddb'] as const } : {}) });
  },
  markdown: storageMarkdown,
  title: () => 'Storage',
  tables: (report) => storageTable(report),
});

export const dialectsPart = definePart<DialectReport>({
  name: 'dialects',
  async run({ smoke, corpus, log }) {
    log(
      smoke
        ? `dialects: ${SMOKE_SESSION} as Responses items and AI SDK messages, ceiling 8000`
        : 'dialects: five sessions as Responses items and AI SDK messages, ceilings 16000 and 8000',
    );
    return runDialects({ corpus, log, ...(smoke ? { only: [SMOKE_SESSION], ceilings: [8_000] } : {}) });
  },
  markdown: dialectMarkdown,
  title: (report) => `Dialect parity (${report.files.length} sessions)`,
  tables: (report) => dialectParityTable(report),
});

export const BENCH_PARTS: readonly BenchPart[] = [replayPart, scenarioPart, scalePart, storagePart, dialectsPart];
