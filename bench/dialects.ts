// Dialect parity: a few real OpenAI chat sessions of the corpus converted into OpenAI Responses
// items and AI SDK messages, replayed through FoldSession in each dialect and scored by the
// reference scorer's metrics on the views converted back to chat. Folds in the new dialects
// should match the chat folds of the same sessions in size and retention.
//
//   npx tsx bench/dialects.ts [--corpus test/fixtures/sessions] [--only NAME,...] [--ceilings 16000,8000] [--out bench/out]
import { nameList, numberList, parseArguments } from './cli/arguments.ts';
import { measuredOn, type MeasuredOn } from './cli/environment.ts';
import { isMainModule } from './cli/is-main.ts';
import { BUNDLED_CORPUS, repoRelative, RUN_OUTPUT } from './cli/paths.ts';
import { formatInteger, formatPercent, markdownTable, type Cell } from './cli/markdown-table.ts';
import { writeResults } from './cli/write-results.ts';
import { loadSessions } from './corpus/load-sessions.ts';
import { SessionConverter, type ConvertedDialect } from './dialects/convert-session.ts';
import { addCounters, emptyCounters, replaySession, type ReplayCounters } from '../src/baselines/session-replay.ts';
import { summaryRow, type SummaryRow } from '../src/baselines/summary-row.ts';
import { renderedMessage } from '../src/baselines/message-tokens.ts';
import type { BaselineMessage, StrategyDefinition } from '../src/baselines/types.ts';
import { DEFAULT_CEILINGS } from './replay.ts';
import { FoldSession } from '../src/index.ts';

/** Real sessions shipped with the repository (test/fixtures/README.md names their sources). */
export const BUNDLED_SESSIONS = BUNDLED_CORPUS;
/** Run output (gitignored): a run never dirties the checkout. */
export const DIALECT_RESULTS = RUN_OUTPUT;

/** One session per kind of agent: Claude Code, a reasoning model, a chat model, SWE-agent, tau-bench. */
export const DIALECT_SESSIONS = [
  'claudecode-console-bookminder-day008-s1',
  'msa-ds-reasoner-dev-sqlfluff__sqlfluff-2419',
  'msa-ds-chat-test-django__django-10914',
  'sweagent-gpt4-pydicom__pydicom-1458',
  'tau-airline-gpt-4o-task02-trial1',
];

export const DIALECT_NAMES = ['openai', 'openai-responses', 'ai-sdk'] as const;
export type BenchDialect = (typeof DIALECT_NAMES)[number];

export interface DialectRow extends SummaryRow {
  /** Calls whose view, rendered as chat, is byte-identical to the chat dialect's view of the same call (fold headers aside). */
  readonly identicalViewPercent: number;
  /** Sum of view tokens over all calls, relative to the chat dialect's. */
  readonly viewTokensVsChat: number;
}

export interface DialectReport {
  readonly kind: 'dialects';
  readonly corpus: string;
  readonly files: string[];
  readonly ceilings: Array<{ readonly ceiling: number; readonly rows: Record<BenchDialect, DialectRow> }>;
  readonly seconds: number;
  readonly measuredOn: MeasuredOn;
}

export interface DialectOptions {
  readonly corpus?: string;
  readonly only?: readonly string[];
  readonly ceilings?: readonly number[];
  readonly log?: (line: string) => void;
}

const FOLD_HEADER = /\[warpfold fold · messages \d+–\d+ · [\d,]+ tokens[^\]]*\]/g;

/** FoldSession over the history in `dialect`; the view comes back as chat, and each call's rendering is recorded. */
function dialectStrategy(dialect: BenchDialect, renderings: string[][]): StrategyDefinition {
  return {
    name: dialect,
    description: `FoldSession over the session as ${dialect} messages`,
    create: ({ ceiling, countTokens, now }) => {
      const session = new FoldSession({ pressureCeiling: ceiling, countTokens, now });
      const converter = dialect === 'openai' ? undefined : new SessionConverter(dialect as ConvertedDialect);
      const calls: string[] = [];
      renderings.push(calls);
      return {
        prepare: (history, options) => {
          const input = converter ? converter.toDialect(history) : (history as BaselineMessage[]);
          const view = session.prepare(input as BaselineMessage[], options).messages as BaselineMessage[];
          const chat = converter ? converter.toChat(view) : view;
          // a fold header names raw message numbers and counts, which differ when a dialect splits a turn into several items
          calls.push(chat.map(renderedMessage).join('').replace(FOLD_HEADER, '[warpfold fold]'));
          return { messages: chat };
        },
      };
    },
  };
}

export function runDialects(options: DialectOptions = {}): DialectReport {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const corpus = options.corpus ?? BUNDLED_SESSIONS;
  const sessions = loadSessions(corpus, { only: options.only ?? DIALECT_SESSIONS });
  const ceilings: DialectReport['ceilings'] = [];
  for (const ceiling of options.ceilings ?? DEFAULT_CEILINGS) {
    const totals = new Map<BenchDialect, ReplayCounters>(DIALECT_NAMES.map((name) => [name, emptyCounters()]));
    const identical = new Map<BenchDialect, number>(DIALECT_NAMES.map((name) => [name, 0]));
    const viewTokens = new Map<BenchDialect, number>(DIALECT_NAMES.map((name) => [name, 0]));
    let calls = 0;
    for (const session of sessions) {
      const renderings = new Map<BenchDialect, string[]>();
      for (const dialect of DIALECT_NAMES) {
        const recorded: string[][] = [];
        const counters = replaySession(session.messages, dialectStrategy(dialect, recorded), { ceiling });
        if (counters.errors) log(`  ${dialect} threw on ${session.file}: ${counters.firstError}`);
        totals.set(dialect, addCounters(totals.get(dialect)!, counters));
        viewTokens.set(dialect, viewTokens.get(dialect)! + counters.tokens);
        renderings.set(dialect, recorded[0]);
      }
      const chat = renderings.get('openai')!;
      calls += chat.length;
      for (const dialect of DIALECT_NAMES)
        identical.set(
          dialect,
          identical.get(dialect)! +
            renderings.get(dialect)!.filter((rendering, call) => rendering === chat[call]).length,
        );
    }
    const chatTokens = viewTokens.get('openai')!;
    const rows = Object.fromEntries(
      DIALECT_NAMES.map((dialect) => [
        dialect,
        {
          ...summaryRow(totals.get(dialect)!, totals.get('openai')!.cost),
          identicalViewPercent: calls ? +((100 * identical.get(dialect)!) / calls).toFixed(1) : 0,
          viewTokensVsChat: chatTokens ? +(viewTokens.get(dialect)! / chatTokens).toFixed(4) : 1,
        },
      ]),
    ) as Record<BenchDialect, DialectRow>;
    ceilings.push({ ceiling, rows });
    log(`  ceiling ${ceiling}: done`);
  }
  return {
    kind: 'dialects',
    corpus: repoRelative(corpus),
    files: sessions.map((session) => session.file),
    ceilings,
    seconds: +((performance.now() - started) / 1000).toFixed(1),
    measuredOn: measuredOn(),
  };
}

const HEADER = [
  'ceiling',
  'dialect',
  'cost $',
  'cache %',
  'max tokens',
  'over ceiling',
  'retention',
  'far in context',
  'far reuse',
  'view tokens vs chat',
  'views identical to chat',
];

export function dialectParityTable(report: DialectReport): string {
  const rows = report.ceilings.flatMap(({ ceiling, rows: byDialect }) =>
    DIALECT_NAMES.map((dialect): Cell[] => {
      const row = byDialect[dialect];
      return [
        formatInteger(ceiling),
        dialect,
        row.cost.toFixed(2),
        row.cachePercent.toFixed(1),
        formatInteger(row.maxTokens),
        row.overCeilingCalls,
        formatPercent(row.retentionPercent),
        formatPercent(row.farContextPercent),
        formatPercent(row.farReusePercent),
        `${row.viewTokensVsChat.toFixed(3)}×`,
        formatPercent(row.identicalViewPercent),
      ];
    }),
  );
  return markdownTable(HEADER, rows);
}

export function dialectMarkdown(report: DialectReport): string {
  const calls = report.ceilings[0] ? report.ceilings[0].rows.openai.calls : 0;
  return [
    '# Dialect parity',
    '',
    `${report.files.length} OpenAI chat sessions from \`${report.corpus}\` (${formatInteger(calls)} model calls), each converted into OpenAI Responses input items ` +
      '(an assistant turn becomes reasoning, message and function_call items) and AI SDK ModelMessages (one tool message per step), replayed through FoldSession ' +
      'in its own dialect, and scored with the reference scorer\'s metrics on the views converted back to chat. "views identical to chat" counts the calls whose ' +
      "view, rendered as chat, is byte-identical to the chat dialect's view of the same call, apart from fold headers (they number raw messages, and a Responses turn is several items).",
    '',
    dialectParityTable(report),
    '',
    `Sessions: ${report.files.map((file) => file.replace(/\.json$/, '')).join(', ')}.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  const report = runDialects({
    corpus: parsed.corpus,
    only: parsed.only ? nameList(parsed.only, []) : undefined,
    ceilings: numberList(parsed.ceilings, DEFAULT_CEILINGS),
    log: (line) => console.error(line),
  });
  console.log(dialectParityTable(report));
  const written = writeResults(parsed.out ?? DIALECT_RESULTS, 'dialects', report, dialectMarkdown(report));
  console.log(
    `\n${report.files.length} sessions in ${report.seconds} s; wrote ${written.json} and ${written.markdown}`,
  );
}

if (isMainModule(import.meta.url)) await main();
