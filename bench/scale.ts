// prepare() driven incrementally through long synthetic sessions (100, 1,000 and 5,000 turns by
// default): milliseconds per call (median, p99), total, peak heap, and how per-call time grows.
// Writes bench/results/scale.{json,md}.
//
//   npx tsx bench/scale.ts [--turns 100,1000,5000] [--ceiling 16000] [--strategies warpfold,truncate]
//     [--budget-seconds 120]   (per strategy and session length; a run that passes it stops and says so)
//     [--huge-step-calls 10000,100000]   (one assistant message with that many tool calls and results)
//     [--latency-corpus DIR,...]   (per-call latency on the real sessions of these folders; none by default)
//     [--heap-messages 10000]   (heap one session retains after that many messages; 0 to leave it out)
//     [--long-history 50000]   (six calls over a history of about that many messages, handed over at once; 0 to leave it out)
import { clearMergeCache, countTokens as countWithGptTokenizer } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens } from '../src/tokens/index.ts';
import { nameList, numberList, parseArguments } from './cli/arguments.ts';
import { isMainModule } from './cli/is-main.ts';
import { formatInteger, markdownTable, type Cell } from './cli/markdown-table.ts';
import { writeResults } from './cli/write-results.ts';
import { measuredOn, type MeasuredOn } from './cli/environment.ts';
import { repoRelative, RUN_OUTPUT } from './cli/paths.ts';
import { loadSessions } from './corpus/load-sessions.ts';
import { LATENCY_REPLAYS, measureCallLatency, quantile, type LatencyRow } from './scale/call-latency.ts';
import { settledHeapBytes, settledHeapBytesHolding } from './scale/heap.ts';
import { measureSessionHeap, type SessionHeapRow } from './scale/session-heap.ts';
import { sessionOpening, syntheticTurn } from '../test/helpers/workloads/synthetic-session.ts';
import { HUGE_STEP_SHAPES, hugeStep, type HugeStepShape } from '../test/helpers/workloads/huge-step.ts';
import { createMessageTokenCounter, resetSharedTokenMemo } from '../src/baselines/message-tokens.ts';
import { LONG_HISTORY_CALLS, longHistory } from '../test/helpers/workloads/long-history.ts';
import { selectStrategies, type EngineSource } from './strategies/registry.ts';
import type { BaselineMessage, StrategyDefinition } from '../src/baselines/types.ts';

export const DEFAULT_TURNS = [100, 1_000, 5_000];
export const DEFAULT_SCALE_STRATEGIES = ['warpfold', 'truncate'];
export const DEFAULT_SCALE_CEILING = 16_000;

export interface ScaleRow {
  readonly strategy: string;
  readonly turns: number;
  /** Turns actually driven: fewer than `turns` when the run hit its time budget. */
  readonly completedTurns: number;
  readonly stoppedByBudget: boolean;
  readonly messages: number;
  readonly medianMilliseconds: number;
  readonly p99Milliseconds: number;
  readonly totalMilliseconds: number;
  /** Peak heap in use during the run, above the heap in use when it started (the session itself included). */
  readonly peakHeapMegabytes: number;
  /** Heap the strategy itself keeps alive at the end of the run (history excluded), after full collections. */
  readonly retainedHeapMegabytes: number;
  readonly maxViewTokens: number;
  readonly overCeilingCalls: number;
  readonly errors: number;
}

export interface ScaleReport {
  readonly kind: 'scale';
  readonly ceiling: number;
  readonly skipped: Array<{ name: string; reason: string }>;
  readonly rows: ScaleRow[];
  /** Per strategy: median per-call time at the most turns over the median at the fewest. */
  readonly growth: Record<string, { from: number; to: number; ratio: number }>;
  readonly budgetSeconds: number;
  readonly measuredOn: MeasuredOn;
  /** One assistant message with N tool calls and N results, prepared once (issue 14, finding 4). */
  readonly hugeSteps?: HugeStepRow[];
  /** Per-call prepare() latency on real sessions, per family and overall (warpfold only). */
  readonly latency?: { readonly corpora: string[]; readonly rows: LatencyRow[] };
  /** Heap one session retains after a long synthetic session (warpfold only). */
  readonly sessionHeap?: SessionHeapRow[];
  /** A long history handed over in one call, then a few more calls (warpfold only; issue 29). */
  readonly longHistory?: LongHistoryRow[];
}

/** The o200k counters a long history is counted with: the library's, and gpt-tokenizer's own as a host may pass it. */
export type LongHistoryCounter = 'warpfold/tokens' | 'gpt-tokenizer';
export const LONG_HISTORY_COUNTERS: readonly LongHistoryCounter[] = ['warpfold/tokens', 'gpt-tokenizer'];

export interface LongHistoryRow {
  readonly strategy: string;
  readonly counter: LongHistoryCounter;
  /** Messages the first call sees; each later call sees one more. */
  readonly firstCallMessages: number;
  readonly calls: number;
  readonly firstCallMilliseconds: number;
  /** The other calls together. */
  readonly laterCallsMilliseconds: number;
  readonly errors: number;
}

export interface HugeStepRow {
  readonly strategy: string;
  readonly shape: HugeStepShape;
  readonly calls: number;
  readonly milliseconds: number;
  readonly errors: number;
}

export const DEFAULT_HUGE_STEP_CALLS = [10_000, 100_000];
export const DEFAULT_LONG_HISTORY_MESSAGES = [50_000];

export const DEFAULT_BUDGET_SECONDS = 120;

export interface ScaleOptions extends EngineSource {
  readonly turns?: readonly number[];
  /** Wall-clock seconds one (strategy, turns) run may take before it stops and says so. */
  readonly budgetSeconds?: number;
  readonly ceiling?: number;
  readonly strategies?: readonly string[];
  readonly log?: (line: string) => void;
  /** Tool calls in the one-huge-step case; empty to leave it out. */
  readonly hugeStepCalls?: readonly number[];
  /** Folders of real sessions whose per-call latency is measured (at `ceiling`); none when absent. */
  readonly latencyCorpora?: readonly string[];
  /** Only the sessions whose file name contains one of these (the smoke run's one session). */
  readonly latencyOnly?: readonly string[];
  /** Messages of the session whose retained heap is measured; none when absent or 0. */
  readonly heapMessages?: number;
  /** Messages of the long history handed over at once; empty to leave it out. */
  readonly longHistoryMessages?: readonly number[];
}

/** The edge targets of issue 13: a Worker's few milliseconds of CPU, a Durable Object's 128 MB isolate. */
export const EDGE_HEAP_MESSAGES = 10_000;

function driveHugeStep(
  definition: StrategyDefinition,
  shape: HugeStepShape,
  calls: number,
  ceiling: number,
): HugeStepRow {
  const history = hugeStep(shape, calls);
  const strategy = definition.create({ ceiling, countTokens, now: () => 0 });
  let errors = 0;
  const started = performance.now();
  try {
    strategy.prepare(history, {});
  } catch {
    errors++;
  }
  return { strategy: definition.name, shape, calls, milliseconds: rounded(performance.now() - started, 1), errors };
}

/**
 * `LONG_HISTORY_CALLS` calls over a history of `messages` messages: the first sees all but the last
 * few, each later one a message more (a Durable Object restoring a long session, a host attaching
 * late). gpt-tokenizer's merge cache is emptied first: it is shared by the process, and what an
 * earlier run left in it would change what this one costs.
 */
function driveLongHistory(
  definition: StrategyDefinition,
  messages: number,
  ceiling: number,
  counter: LongHistoryCounter,
): LongHistoryRow {
  const history = longHistory(messages);
  const first = history.length - (LONG_HISTORY_CALLS - 1);
  clearMergeCache();
  let clock = 0;
  const strategy = definition.create({
    ceiling,
    countTokens: counter === 'gpt-tokenizer' ? (text) => countWithGptTokenizer(text) : countTokens,
    now: () => clock,
  });
  const durations: number[] = [];
  let errors = 0;
  for (let call = 0; call < LONG_HISTORY_CALLS; call++) {
    clock += 20_000;
    const started = performance.now();
    try {
      strategy.prepare(history.slice(0, first + call), {});
    } catch {
      errors++;
    }
    durations.push(performance.now() - started);
  }
  const [firstCall, ...later] = durations;
  return {
    strategy: definition.name,
    counter,
    firstCallMessages: first,
    calls: LONG_HISTORY_CALLS,
    firstCallMilliseconds: rounded(firstCall, 1),
    laterCallsMilliseconds: rounded(
      later.reduce((sum, value) => sum + value, 0),
      1,
    ),
    errors,
  };
}

const rounded = (value: number, digits = 3): number => +value.toFixed(digits);

function driveSession(definition: StrategyDefinition, turns: number, ceiling: number, budgetSeconds: number): ScaleRow {
  const deadline = performance.now() + budgetSeconds * 1000;
  let completedTurns = 0;
  let clock = 0;
  let strategy: ReturnType<StrategyDefinition['create']> | null = definition.create({
    ceiling,
    countTokens,
    now: () => clock,
  });
  // Each run tokenizes for itself; the harness measures views with its own counter.
  resetSharedTokenMemo();
  const harness = createMessageTokenCounter();
  const baselineHeap = settledHeapBytes();
  const history: BaselineMessage[] = sessionOpening();
  const durations: number[] = [];
  let peakHeap = baselineHeap;
  let measured: number | undefined;
  let maxViewTokens = 0;
  let overCeilingCalls = 0;
  let errors = 0;
  for (let turn = 0; turn < turns; turn++) {
    const [first, ...rest] = syntheticTurn(turn);
    // The host keeps one append-only array; an operator message lands before the call.
    if (first.role === 'user') history.push(first);
    clock += 20_000;
    const started = performance.now();
    let view: readonly BaselineMessage[] = history;
    try {
      view = strategy!.prepare(history, { measuredInputTokens: measured }).messages;
    } catch {
      errors++;
    }
    durations.push(performance.now() - started);
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    measured = harness.viewTokens(view);
    maxViewTokens = Math.max(maxViewTokens, measured);
    if (measured > ceiling) overCeilingCalls++;
    history.push(...(first.role === 'user' ? rest : [first, ...rest]));
    completedTurns++;
    if (performance.now() > deadline) break;
  }
  // what the strategy itself keeps alive: the settled heap with it, less the settled heap without it
  const withStrategy = settledHeapBytesHolding(strategy);
  strategy = null;
  const retainedHeap = withStrategy - settledHeapBytes();
  const sorted = [...durations].sort((first, second) => first - second);
  return {
    strategy: definition.name,
    turns,
    completedTurns,
    stoppedByBudget: completedTurns < turns,
    messages: history.length,
    medianMilliseconds: rounded(quantile(sorted, 0.5)),
    p99Milliseconds: rounded(quantile(sorted, 0.99)),
    totalMilliseconds: rounded(
      durations.reduce((sum, value) => sum + value, 0),
      1,
    ),
    peakHeapMegabytes: rounded((peakHeap - baselineHeap) / 2 ** 20, 1),
    retainedHeapMegabytes: rounded(retainedHeap / 2 ** 20, 1),
    maxViewTokens,
    overCeilingCalls,
    errors,
  };
}

export async function runScale(options: ScaleOptions = {}): Promise<ScaleReport> {
  const ceiling = options.ceiling ?? DEFAULT_SCALE_CEILING;
  const turnCounts = [...(options.turns ?? DEFAULT_TURNS)].sort((first, second) => first - second);
  const { definitions, skipped } = await selectStrategies(options.strategies ?? DEFAULT_SCALE_STRATEGIES, options);
  const rows: ScaleRow[] = [];
  const growth: ScaleReport['growth'] = {};
  for (const definition of definitions) {
    const own: ScaleRow[] = [];
    for (const turns of turnCounts) {
      const row = driveSession(definition, turns, ceiling, options.budgetSeconds ?? DEFAULT_BUDGET_SECONDS);
      own.push(row);
      options.log?.(
        `  ${definition.name} ${turns} turns: ${row.completedTurns} driven, ${formatInteger(row.totalMilliseconds)} ms in prepare`,
      );
      // A longer session would only hit the budget sooner.
      if (row.stoppedByBudget) break;
    }
    rows.push(...own);
    const complete = own.filter((row) => !row.stoppedByBudget);
    const first = complete[0];
    const last = complete[complete.length - 1];
    if (first && last && first !== last)
      growth[definition.name] = {
        from: first.turns,
        to: last.turns,
        ratio: first.medianMilliseconds > 0 ? rounded(last.medianMilliseconds / first.medianMilliseconds, 2) : 0,
      };
  }
  const hugeSteps: HugeStepRow[] = [];
  for (const definition of definitions.filter((candidate) => candidate.name === 'warpfold'))
    for (const calls of options.hugeStepCalls ?? DEFAULT_HUGE_STEP_CALLS)
      for (const shape of HUGE_STEP_SHAPES) {
        const row = driveHugeStep(definition, shape, calls, ceiling);
        hugeSteps.push(row);
        options.log?.(
          `  ${definition.name} one step of ${calls} calls (${shape}): ${formatInteger(row.milliseconds)} ms`,
        );
      }
  const warpfold = definitions.find((candidate) => candidate.name === 'warpfold');
  let latency: ScaleReport['latency'];
  if (warpfold && options.latencyCorpora?.length) {
    const sessions = options.latencyCorpora.flatMap((corpus) => loadSessions(corpus, { only: options.latencyOnly }));
    latency = {
      corpora: options.latencyCorpora.map(repoRelative),
      rows: measureCallLatency(sessions, warpfold, ceiling),
    };
    const all = latency.rows[latency.rows.length - 1];
    options.log?.(
      `  warpfold per-call latency on ${sessions.length} real sessions: p99 ${all.p99Milliseconds} ms, max ${all.maxMilliseconds} ms`,
    );
  }
  const sessionHeap: SessionHeapRow[] = [];
  if (warpfold && options.heapMessages) {
    sessionHeap.push(measureSessionHeap(warpfold, options.heapMessages, ceiling));
    // the default receipt log holds the newest receipts; what a host that keeps every one pays
    const everyReceipt = (
      await selectStrategies(['warpfold'], {
        ...options,
        engineOptions: { ...options.engineOptions, keepReceipts: true },
      })
    ).definitions[0];
    if (everyReceipt)
      sessionHeap.push({
        ...measureSessionHeap(everyReceipt, options.heapMessages, ceiling),
        strategy: 'warpfold, keepReceipts: true',
      });
  }
  for (const row of sessionHeap)
    options.log?.(`  warpfold retains ${row.retainedHeapMegabytes} MB after ${formatInteger(row.messages)} messages`);
  const longHistoryRows: LongHistoryRow[] = [];
  if (warpfold)
    for (const messages of options.longHistoryMessages ?? DEFAULT_LONG_HISTORY_MESSAGES)
      for (const counter of LONG_HISTORY_COUNTERS) {
        const row = driveLongHistory(warpfold, messages, ceiling, counter);
        longHistoryRows.push(row);
        options.log?.(
          `  warpfold, ${formatInteger(row.firstCallMessages)} messages at once (${counter}): first call ${formatInteger(row.firstCallMilliseconds)} ms, ${row.calls - 1} more ${formatInteger(row.laterCallsMilliseconds)} ms`,
        );
      }
  return {
    kind: 'scale',
    ceiling,
    skipped,
    rows,
    growth,
    budgetSeconds: options.budgetSeconds ?? DEFAULT_BUDGET_SECONDS,
    measuredOn: measuredOn(),
    ...(hugeSteps.length ? { hugeSteps } : {}),
    ...(latency ? { latency } : {}),
    ...(sessionHeap.length ? { sessionHeap } : {}),
    ...(longHistoryRows.length ? { longHistory: longHistoryRows } : {}),
  };
}

export function scaleTable(report: ScaleReport): string {
  const header = [
    'strategy',
    'turns',
    'messages',
    'median ms / call',
    'p99 ms / call',
    'total ms',
    'peak heap MB above start',
    'heap the strategy retains MB',
    'max view tokens',
    'over ceiling',
  ];
  const rows = report.rows.map((row): Cell[] => [
    row.strategy,
    row.stoppedByBudget
      ? `${formatInteger(row.completedTurns)} of ${formatInteger(row.turns)} (time budget)`
      : formatInteger(row.turns),
    formatInteger(row.messages),
    row.medianMilliseconds.toFixed(3),
    row.p99Milliseconds.toFixed(3),
    formatInteger(row.totalMilliseconds),
    row.peakHeapMegabytes.toFixed(1),
    row.retainedHeapMegabytes.toFixed(1),
    formatInteger(row.maxViewTokens),
    row.overCeilingCalls,
  ]);
  return markdownTable(header, rows);
}

export function hugeStepTable(report: ScaleReport): string {
  const rows = (report.hugeSteps ?? []).map((row): Cell[] => [
    row.strategy,
    row.shape,
    formatInteger(row.calls),
    formatInteger(row.milliseconds),
    row.errors,
  ]);
  return markdownTable(['strategy', 'one step of', 'tool calls', 'prepare ms', 'errors'], rows);
}

export function latencyTable(report: ScaleReport): string {
  const rows = (report.latency?.rows ?? []).map((row): Cell[] => [
    row.family,
    row.sessions,
    formatInteger(row.calls),
    row.p50Milliseconds.toFixed(3),
    row.p99Milliseconds.toFixed(3),
    row.maxMilliseconds.toFixed(3),
    row.engineP50Milliseconds.toFixed(3),
    row.engineP99Milliseconds.toFixed(3),
    row.engineMaxMilliseconds.toFixed(3),
    row.slowest,
  ]);
  return markdownTable(
    [
      'family',
      'sessions',
      'calls',
      'p50 ms',
      'p99 ms',
      'max ms',
      'p50 ms less counting',
      'p99 ms less counting',
      'max ms less counting',
      'slowest call',
    ],
    rows,
  );
}

export function sessionHeapTable(report: ScaleReport): string {
  const rows = (report.sessionHeap ?? []).map((row): Cell[] => [
    row.strategy,
    formatInteger(row.messages),
    formatInteger(row.calls),
    row.retainedHeapMegabytes.toFixed(1),
  ]);
  return markdownTable(['strategy', 'messages', 'prepare calls', 'heap one session retains MB'], rows);
}

export function longHistoryTable(report: ScaleReport): string {
  const rows = (report.longHistory ?? []).map((row): Cell[] => [
    row.strategy,
    row.counter,
    formatInteger(row.firstCallMessages),
    row.calls,
    formatInteger(row.firstCallMilliseconds),
    formatInteger(row.laterCallsMilliseconds),
    formatInteger(row.firstCallMilliseconds + row.laterCallsMilliseconds),
    row.errors,
  ]);
  return markdownTable(
    ['strategy', 'o200k counter', 'first call sees', 'calls', 'first call ms', 'later calls ms', 'total ms', 'errors'],
    rows,
  );
}

/** The latency, retained-heap and long-history tables, when the run measured them. */
export function edgeSections(report: ScaleReport): string[] {
  const sections: string[] = [];
  if (report.latency)
    sections.push(
      `Per-call prepare() latency at ${formatInteger(report.ceiling)} on the real sessions of ${report.latency.corpora.join(', ')}, replayed call by call as the session replay drives it (one untimed warm-up session first; each call's time is the median of ${LATENCY_REPLAYS} replays). "Less counting" leaves out the time spent inside the o200k token counter the host hands the session (each new message and each new band line is counted once):\n\n${latencyTable(report)}`,
    );
  if (report.longHistory?.length)
    sections.push(
      `A long history handed over in one call (a Durable Object restoring a long session): a system prompt, then steps of one tool call (bash, read_file, edit_file or grep) and a result of 40 to 80 words, a user message every 8 steps, agent text on every third call and after every fifth step, words of two to four syllables (hundreds of thousands of distinct ones, as real output has). The first call sees all but the last ${LONG_HISTORY_CALLS - 1} messages, each later call one more. gpt-tokenizer's own \`countTokens\` slows down once it has split 100,000 distinct word pieces (its merge cache then evicts one entry at a time); \`countTokens\` of \`warpfold/tokens\` clears that cache before it fills:\n\n${longHistoryTable(report)}`,
    );
  if (report.sessionHeap?.length)
    sections.push(
      `Heap one FoldSession retains after the synthetic session (settled heap with the session alive less without it; the history excluded):\n\n${sessionHeapTable(report)}`,
    );
  return sections;
}

export function growthLines(report: ScaleReport): string[] {
  const lines = Object.entries(report.growth).map(
    ([name, { from, to, ratio }]) =>
      `- ${name}: median per-call time at ${formatInteger(to)} turns is ${ratio}× that at ${formatInteger(from)} turns`,
  );
  for (const row of report.rows.filter((candidate) => candidate.stoppedByBudget)) {
    lines.push(
      `- ${row.strategy}: the ${formatInteger(row.turns)}-turn session was stopped after ${formatInteger(row.completedTurns)} turns, when it passed its ${report.budgetSeconds} s time budget; longer sessions were not attempted`,
    );
  }
  return lines;
}

export function scaleMarkdown(report: ScaleReport): string {
  const lines = [
    '# Scale',
    '',
    `prepare() called once per turn on a growing synthetic session (one tool call per turn, one result in ten large), ceiling ${formatInteger(report.ceiling)} tokens. Peak heap is measured from a collected heap at the start of each run and includes the session itself and uncollected garbage; retained heap is what the strategy alone keeps alive at the end (the history excluded). Measured on Node ${report.measuredOn.node}, ${report.measuredOn.cores} cores (${report.measuredOn.cpu}).`,
    '',
    scaleTable(report),
    '',
    ...growthLines(report),
    ...(report.hugeSteps?.length
      ? [
          '',
          'One assistant message with N tool calls and N results (in order, reversed, or Gemini answering by name), one prepare() call on the whole history:',
          '',
          hugeStepTable(report),
        ]
      : []),
    ...edgeSections(report).flatMap((section) => ['', section]),
  ];
  for (const { name, reason } of report.skipped) lines.push(`- ${name}: not run (${reason})`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  const report = await runScale({
    turns: numberList(parsed.turns, DEFAULT_TURNS),
    ceiling: parsed.ceiling ? Number(parsed.ceiling) : undefined,
    strategies: nameList(parsed.strategies, DEFAULT_SCALE_STRATEGIES),
    budgetSeconds: parsed['budget-seconds'] ? Number(parsed['budget-seconds']) : undefined,
    hugeStepCalls: numberList(parsed['huge-step-calls'], DEFAULT_HUGE_STEP_CALLS),
    latencyCorpora: parsed['latency-corpus'] ? nameList(parsed['latency-corpus'], []) : undefined,
    heapMessages: parsed['heap-messages'] !== undefined ? Number(parsed['heap-messages']) : undefined,
    longHistoryMessages:
      parsed['long-history'] !== undefined
        ? numberList(parsed['long-history'], DEFAULT_LONG_HISTORY_MESSAGES).filter((messages) => messages > 0)
        : undefined,
    log: (line) => console.error(line),
    enginePath: parsed.engine,
    engineOptions: parsed.options ? JSON.parse(parsed.options) : undefined,
  });
  for (const { name, reason } of report.skipped) console.error(`  ${name}: skipped (${reason})`);
  console.log(scaleTable(report));
  console.log(growthLines(report).join('\n'));
  if (report.hugeSteps?.length) console.log(`\n${hugeStepTable(report)}`);
  for (const section of edgeSections(report)) console.log(`\n${section}`);
  const written = writeResults(parsed.out ?? RUN_OUTPUT, 'scale', report, scaleMarkdown(report));
  console.log(`\nwrote ${repoRelative(written.json)} and ${repoRelative(written.markdown)}`);
}

if (isMainModule(import.meta.url)) await main();
