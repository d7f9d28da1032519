// Real-session replay: every session of a corpus, call by call, through every strategy, with the
// reference scorer's metrics at each ceiling. Writes bench/results/replay.{json,md}.
//
//   npx tsx bench/replay.ts [--full | --corpus DIR] [--ceilings 16000,8000]
//   real windows: --corpus ../shared/corpus/dev-long --ceilings 64000,128000,200000 (reported apart)
//     [--strategies raw,truncate,...,warpfold] [--limit N] [--only NAME,...]
//     [--engine path/to/index.(ts|js)] [--options '{"recall":true}'] [--out bench/out]
// Without --corpus or --full it replays the sessions bundled in test/fixtures/sessions.
import { nameList, numberList, parseArguments } from './cli/arguments.ts';
import { isMainModule, runCommand } from './cli/is-main.ts';
import { formatDollars, formatInteger, formatPercent, markdownTable, type Cell } from './cli/markdown-table.ts';
import { writeResults } from './cli/write-results.ts';
import { measuredOn, type MeasuredOn } from './cli/environment.ts';
import { repoRelative, resolveCorpus, RUN_OUTPUT } from './cli/paths.ts';
import { loadSessions } from './corpus/load-sessions.ts';
import { addCounters, emptyCounters, replaySession, type ReplayCounters } from '../src/baselines/session-replay.ts';
import { DEFAULT_PRICE_MODEL } from '../src/tokens/index.ts';
import { summaryRow, type SummaryRow } from '../src/baselines/summary-row.ts';
import { ALL_STRATEGY_NAMES, selectStrategies } from './strategies/registry.ts';

export const DEFAULT_CEILINGS = [16_000, 8_000];

export interface ReplayOptions {
  /** A folder of sessions; the bundled sessions when absent. */
  readonly corpus?: string;
  readonly ceilings?: readonly number[];
  readonly strategies?: readonly string[];
  readonly limit?: number;
  readonly only?: readonly string[];
  readonly enginePath?: string;
  readonly engineOptions?: Record<string, unknown>;
  readonly log?: (line: string) => void;
}

export interface CeilingReport {
  readonly ceiling: number;
  /** Each new message written to the cache once: no strategy can cost less. */
  readonly floor: number;
  readonly summary: Record<string, SummaryRow>;
  readonly sessions: Array<{ file: string; rows: Record<string, SummaryRow> }>;
  readonly firstErrors: Record<string, string>;
}

export interface ReplayReport {
  readonly kind: 'replay';
  /** The corpus folder, relative to the repository. */
  readonly corpus: string;
  readonly files: string[];
  readonly priceModel: string;
  readonly strategies: string[];
  readonly skipped: Array<{ name: string; reason: string }>;
  readonly ceilings: CeilingReport[];
  readonly seconds: number;
  readonly measuredOn: MeasuredOn;
}

export async function runReplay(options: ReplayOptions = {}): Promise<ReplayReport> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const corpus = resolveCorpus({ corpus: options.corpus });
  const sessions = loadSessions(corpus, { limit: options.limit, only: options.only });
  const { definitions, skipped } = await selectStrategies(options.strategies ?? ALL_STRATEGY_NAMES, options);
  for (const { name, reason } of skipped) log(`  ${name}: skipped (${reason})`);
  const ceilings: CeilingReport[] = [];
  for (const ceiling of options.ceilings ?? DEFAULT_CEILINGS) {
    const totals = new Map<string, ReplayCounters>(definitions.map((definition) => [definition.name, emptyCounters()]));
    const perSession: Array<{ file: string; counters: Map<string, ReplayCounters> }> = [];
    for (const session of sessions) {
      const counters = new Map<string, ReplayCounters>();
      for (const definition of definitions) {
        const result = replaySession(session.messages, definition, { ceiling });
        if (result.errors > 0 && !totals.get(definition.name)!.firstError)
          log(`  ${definition.name} threw on ${session.file} ${result.firstError}`);
        counters.set(definition.name, result);
        totals.set(definition.name, addCounters(totals.get(definition.name)!, result));
      }
      perSession.push({ file: session.file, counters });
    }
    const rowsOf = (counters: Map<string, ReplayCounters>): Record<string, SummaryRow> => {
      const rawCost = counters.get('raw')?.cost;
      return Object.fromEntries([...counters].map(([name, value]) => [name, summaryRow(value, rawCost)]));
    };
    const firstErrors = Object.fromEntries(
      [...totals].flatMap(([name, value]) => (value.firstError ? [[name, value.firstError]] : [])),
    );
    ceilings.push({
      ceiling,
      floor: +([...totals.values()][0]?.floor ?? 0).toFixed(4),
      summary: rowsOf(totals),
      sessions: perSession.map(({ file, counters }) => ({ file, rows: rowsOf(counters) })),
      firstErrors,
    });
    log(`  ceiling ${ceiling}: done`);
  }
  return {
    kind: 'replay',
    corpus: repoRelative(corpus),
    files: sessions.map((session) => session.file),
    priceModel: DEFAULT_PRICE_MODEL,
    strategies: definitions.map((definition) => definition.name),
    skipped,
    ceilings,
    seconds: +((performance.now() - started) / 1000).toFixed(1),
    measuredOn: measuredOn(),
  };
}

const SUMMARY_HEADER = [
  'ceiling',
  'strategy',
  'cost $',
  'extra calls $',
  'cache %',
  'max tokens',
  'over ceiling',
  'retention',
  'far retention',
  'in context',
  'far in context',
  'reuse',
  'far reuse',
  'live whole',
  'folded calls',
  'prepare ms',
];

function summaryCells(ceiling: number, name: string, row: SummaryRow): Cell[] {
  return [
    formatInteger(ceiling),
    name,
    row.cost.toFixed(2),
    row.extraCalls ? `${row.extraCost.toFixed(2)} (${row.extraCalls} calls)` : '—',
    row.cachePercent.toFixed(1),
    formatInteger(row.maxTokens),
    row.overCeilingCalls,
    formatPercent(row.retentionPercent),
    formatPercent(row.farRetentionPercent),
    formatPercent(row.contextPercent),
    formatPercent(row.farContextPercent),
    formatPercent(row.reusePercent),
    formatPercent(row.farReusePercent),
    formatPercent(row.liveWholePercent),
    formatInteger(row.foldedCalls),
    formatInteger(row.prepareMilliseconds),
  ];
}

export function replaySummaryTable(report: ReplayReport): string {
  const rows = report.ceilings.flatMap((entry) =>
    Object.entries(entry.summary).map(([name, row]) => summaryCells(entry.ceiling, name, row)),
  );
  return markdownTable(SUMMARY_HEADER, rows);
}

export function replayMarkdown(report: ReplayReport): string {
  const first = report.ceilings[0];
  const calls = first ? (Object.values(first.summary)[0]?.calls ?? 0) : 0;
  const lines = [
    `# Session replay`,
    '',
    `${report.files.length} sessions from \`${report.corpus}\`, ${formatInteger(calls)} model calls; cost = ${report.priceModel} prices, 5-minute cache ` +
      `(cached prefix at 0.1x, the rest written at 1.25x, prefixes under 1,024 tokens not cached); floor ${first ? formatDollars(first.floor) : '—'}. ` +
      `Metrics and definitions are those of the reference scorer (../shared/bench/score.mjs). "extra calls" is what the summarization stand-in's own model calls cost on top.`,
    '',
    replaySummaryTable(report),
  ];
  for (const { name, reason } of report.skipped) lines.push('', `- ${name}: not run (${reason})`);
  for (const entry of report.ceilings) {
    lines.push('', `## Per session, ceiling ${formatInteger(entry.ceiling)}`, '');
    const header = [
      'session',
      'strategy',
      'cost $',
      'cache %',
      'max tokens',
      'over ceiling',
      'retention',
      'far in context',
      'far reuse',
      'live whole',
    ];
    const rows = entry.sessions.flatMap(({ file, rows: byStrategy }) =>
      Object.entries(byStrategy).map(([name, row]): Cell[] => [
        file.replace(/\.json$/, ''),
        name,
        row.cost.toFixed(4),
        row.cachePercent.toFixed(1),
        formatInteger(row.maxTokens),
        row.overCeilingCalls,
        formatPercent(row.retentionPercent),
        formatPercent(row.farContextPercent),
        formatPercent(row.farReusePercent),
        formatPercent(row.liveWholePercent),
      ]),
    );
    lines.push(markdownTable(header, rows));
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  const report = await runReplay({
    corpus: resolveCorpus({ corpus: parsed.corpus, full: parsed.full === 'true' }),
    ceilings: numberList(parsed.ceilings, DEFAULT_CEILINGS),
    strategies: nameList(parsed.strategies, ALL_STRATEGY_NAMES),
    limit: parsed.limit ? Number(parsed.limit) : undefined,
    only: parsed.only ? nameList(parsed.only, []) : undefined,
    enginePath: parsed.engine,
    engineOptions: parsed.options ? JSON.parse(parsed.options) : undefined,
    log: (line) => console.error(line),
  });
  console.log(replaySummaryTable(report));
  const written = writeResults(parsed.out ?? RUN_OUTPUT, 'replay', report, replayMarkdown(report));
  console.log(
    `\n${report.files.length} sessions in ${report.seconds} s; wrote ${repoRelative(written.json)} and ${repoRelative(written.markdown)}`,
  );
}

if (isMainModule(import.meta.url)) await runCommand(main);
