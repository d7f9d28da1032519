import { MINIMUM_PRESSURE_CEILING_TOKENS } from '../../budget/resolve-context-budget.ts';
import { DEFAULT_PRICE_MODEL, type ModelPrice, resolveModelPrice } from '../../tokens/price-table.ts';
import { TranscriptFormatError } from '../../transcripts/transcript-format-error.ts';
import type { TranscriptIssue } from '../../transcripts/types.ts';
import { choiceOption, integerOption, parseCommandArguments, stringOption } from './arguments.ts';
import type { CliOutput } from './cli-output.ts';
import { ceilingForSession, engineOf, type SessionCeiling } from './context-ceiling.ts';
import { measuredSpend, recordedInputByTurn, type MeasuredSpend } from './measured-spend.ts';
import { DEFAULT_SESSION_LIMIT, findSessions, type CliSource } from './find-sessions.ts';
import { REPORT_HELP } from './help-texts.ts';
import { loadBaselines } from './load-baselines.ts';
import { describePrice, priceForSession, priceOption } from './price-class.ts';
import { createProgress } from './progress-bar.ts';
import { reportCsv, reportJson, reportTable, type Report } from './report-output.ts';
import { CALL_INTERVAL_MILLISECONDS, replayForReport, type ReplayTally } from './report-replay.ts';
import { readSessionFile } from './read-session-file.ts';
import { RETENTION_TARGET_PERCENT, type ReportTotal, type SessionFigures } from './session-figures.ts';
import { loadTokenCounter } from './token-counting.ts';
import { EXIT_FILE_FAILED, EXIT_OK, UsageError } from './usage-error.ts';

/** Skipped lines named per file before the rest are only counted. */
const ISSUES_SHOWN_PER_FILE = 10;

const rounded = (value: number, digits: number): number => +value.toFixed(digits);

export function describeIssue(file: string, issue: TranscriptIssue): string {
  const where = issue.line > 0 ? `${file}:${issue.line}` : file;
  const what =
    issue.kind === 'unparseable'
      ? 'line does not parse as JSON, skipped'
      : issue.kind === 'unknown-record'
        ? `unknown record${issue.recordType ? ` "${issue.recordType}"` : ''}, skipped`
        : 'invalid record, skipped';
  return `${where}: ${what}: ${issue.detail}`;
}

/** Names a file's skipped lines on stderr: unparseable ones always, the rest only when few. */
export function reportIssues(file: string, issues: readonly TranscriptIssue[], output: CliOutput): void {
  // record types a reader does not know are normal in CLI logs; damaged lines are not
  const damaged = issues.filter((issue) => issue.kind !== 'unknown-record');
  for (const issue of damaged.slice(0, ISSUES_SHOWN_PER_FILE)) output.warn(describeIssue(file, issue));
  if (damaged.length > ISSUES_SHOWN_PER_FILE)
    output.warn(`${file}: ${damaged.length - ISSUES_SHOWN_PER_FILE} more damaged lines skipped`);
}

interface SessionInputs {
  readonly file: string;
  readonly format: string;
  readonly ceiling: SessionCeiling;
  readonly price: ModelPrice | null;
  readonly measured: MeasuredSpend | null;
  readonly tally: ReplayTally;
  readonly skippedLines: number;
}

function figuresOf(inputs: SessionInputs): SessionFigures {
  const { tally, price, ceiling } = inputs;
  const priced = (value: number | undefined): number | null =>
    price === null || value === undefined ? null : rounded(value, 4);
  const retentionPercent = tally.needles ? rounded((100 * tally.needlesKept) / tally.needles, 1) : 100;
  return {
    file: inputs.file,
    format: inputs.format,
    model: ceiling.model ?? null,
    ceiling: ceiling.ceiling,
    ceilingSource: ceiling.source,
    ceilingExplanation: ceiling.explanation,
    window: ceiling.window,
    price: price === null ? null : { id: price.model, source: price.source ?? null, checked: price.checked ?? null },
    calls: tally.calls,
    measured: inputs.measured,
    calibratedCalls: tally.calibratedCalls,
    rawPeakTokens: tally.raw.maxTokens,
    overflowCalls: tally.overflowCalls,
    cost: {
      raw: priced(tally.raw.cost),
      truncate: priced(tally.baselines.get('truncate')?.cost),
      clear: priced(tally.baselines.get('clear')?.cost),
      warpfold: priced(tally.warpfold.cost),
    },
    warpfoldCachePercent: tally.warpfold.tokens
      ? rounded((100 * tally.warpfold.cachedTokens) / tally.warpfold.tokens, 1)
      : 0,
    warpfoldTokens: tally.warpfold.tokens,
    warpfoldCachedTokens: tally.warpfold.cachedTokens,
    warpfoldPeakTokens: tally.warpfold.maxTokens,
    retentionPercent,
    retentionBelowTarget: retentionPercent < RETENTION_TARGET_PERCENT,
    needles: tally.needles,
    needlesKept: tally.needlesKept,
    foldMilliseconds: rounded(tally.warpfold.prepareMilliseconds, 0),
    skippedLines: inputs.skippedLines,
    errors: tally.warpfold.errors,
  };
}

function totalOf(sessions: readonly SessionFigures[]): ReportTotal {
  const sum = (pick: (session: SessionFigures) => number) =>
    sessions.reduce((total, session) => total + pick(session), 0);
  // a total over sessions some of which are unpriced would understate: it is left out
  const sumOrNull = (pick: (session: SessionFigures) => number | null) =>
    sessions.length === 0 || sessions.some((session) => pick(session) === null)
      ? null
      : rounded(
          sum((session) => pick(session) ?? 0),
          4,
        );
  const tokens = sum((session) => session.warpfoldTokens);
  const needles = sum((session) => session.needles);
  const spentSessions = sessions.filter((session) => session.measured?.totalCost != null);
  const retentionPercent = needles ? rounded((100 * sum((session) => session.needlesKept)) / needles, 1) : 100;
  return {
    sessions: sessions.length,
    calls: sum((session) => session.calls),
    rawPeakTokens: sessions.reduce((peak, session) => Math.max(peak, session.rawPeakTokens), 0),
    overflowCalls: sum((session) => session.overflowCalls),
    spent:
      spentSessions.length === 0
        ? null
        : rounded(
            spentSessions.reduce((total, session) => total + (session.measured?.totalCost ?? 0), 0),
            4,
          ),
    spentMissing: sessions.length - spentSessions.length,
    cost: {
      raw: sumOrNull((session) => session.cost.raw),
      truncate: sumOrNull((session) => session.cost.truncate),
      clear: sumOrNull((session) => session.cost.clear),
      warpfold: sumOrNull((session) => session.cost.warpfold),
    },
    warpfoldCachePercent: tokens ? rounded((100 * sum((session) => session.warpfoldCachedTokens)) / tokens, 1) : 0,
    retentionPercent,
    retentionBelowTarget: retentionPercent < RETENTION_TARGET_PERCENT,
    foldMilliseconds: sum((session) => session.foldMilliseconds),
  };
}

/** `warpfold report`: replays each session and prints what each strategy would have cost. */
export async function reportCommand(args: readonly string[], output: CliOutput): Promise<number> {
  const { values, positionals } = parseCommandArguments('report', args, {
    claude: { type: 'boolean' },
    codex: { type: 'boolean' },
    gemini: { type: 'boolean' },
    limit: { type: 'string' },
    ceiling: { type: 'string' },
    model: { type: 'string' },
    price: { type: 'string' },
    tokenizer: { type: 'string' },
    json: { type: 'boolean' },
    csv: { type: 'boolean' },
  });
  if (values.help) {
    output.stdout.write(REPORT_HELP);
    return EXIT_OK;
  }
  if (values.json && values.csv) throw new UsageError('choose one of --json and --csv', 'report');
  const limit = integerOption('report', 'limit', values.limit, 0) ?? DEFAULT_SESSION_LIMIT;
  const ceilingOption = integerOption('report', 'ceiling', values.ceiling, MINIMUM_PRESSURE_CEILING_TOKENS);
  const model = stringOption(values.model);
  // an unknown --price is a usage error, said before any replay
  const price = priceOption(stringOption(values.price), 'report');
  // o200k is the only counter; the flag stays accepted for scripts that pass it
  choiceOption('report', 'tokenizer', values.tokenizer, ['o200k'] as const);
  const sources = (['claude', 'codex', 'gemini'] as const).filter((source) => values[source]) as CliSource[];
  if (positionals.length === 0 && sources.length === 0)
    throw new UsageError('name transcript files or folders, or pass --claude, --codex or --gemini', 'report');

  const { paths, empty } = findSessions(positionals, sources, limit);
  if (paths.length === 0) {
    output.warn(`no sessions found under ${empty.join(', ')}`);
    return EXIT_FILE_FAILED;
  }
  for (const folder of empty) output.warn(`no transcripts in ${folder}`);
  const counter = loadTokenCounter();
  const baselines = loadBaselines();
  const progress = createProgress(output);
  const sessions: SessionFigures[] = [];
  const usedPrices = new Map<string, ModelPrice>();
  const failed: Report['failed'] = [];
  for (let index = 0; index < paths.length; index++) {
    const file = paths[index];
    progress.session(index + 1, paths.length, file);
    let read;
    try {
      read = await readSessionFile(file);
    } catch (error) {
      progress.done();
      const reason =
        error instanceof TranscriptFormatError
          ? error.message
          : (error as NodeJS.ErrnoException).code
            ? `cannot read: ${(error as Error).message}`
            : String(error);
      output.warn(`${file}: ${reason}`);
      failed.push({ file, error: reason });
      continue;
    }
    progress.done();
    reportIssues(file, read.issues, output);
    const engine = engineOf(read.format, read.dialect);
    const ceiling = ceilingForSession({ ceiling: ceilingOption, model }, read.metadata.model, engine, 'report');
    const sessionPrice = priceForSession(price, ceiling.model);
    if (sessionPrice === null)
      output.noticeOnce(
        `price:${ceiling.model ?? ''}`,
        `${ceiling.model === undefined ? 'no model recorded' : `no price known for "${ceiling.model}"`}: shown unpriced; pass --price ID to choose one`,
      );
    if (sessionPrice !== null) usedPrices.set(sessionPrice.model, sessionPrice);
    const recordedCalls = read.metadata.recordedCalls ?? [];
    const tally = replayForReport(read.messages, {
      ceiling: ceiling.ceiling,
      window: ceiling.window,
      // an unpriced session still replays the cache (its costs are not shown)
      price: sessionPrice ?? resolveModelPrice(DEFAULT_PRICE_MODEL),
      recordedInput: recordedInputByTurn(recordedCalls),
      countTokens: counter.countTokens,
      baselines: baselines.strategies,
      identifiers: baselines.identifiers,
      measure: baselines.measure,
      onCall: (done, of) => progress.call(done, of),
    });
    progress.done();
    baselines.forget();
    sessions.push(
      figuresOf({
        file,
        format: read.format,
        ceiling,
        price: sessionPrice,
        measured: measuredSpend(recordedCalls, sessionPrice),
        tally,
        skippedLines: read.issues.length,
      }),
    );
  }
  const report: Report = {
    format: 'warpfold/report',
    version: 2,
    tokenizer: counter.tokenizer,
    secondsBetweenCalls: CALL_INTERVAL_MILLISECONDS / 1000,
    sessions,
    total: totalOf(sessions),
    failed,
    prices: [...usedPrices.values()].map(describePrice),
  };
  output.stdout.write(values.json ? reportJson(report) : values.csv ? reportCsv(report) : reportTable(report));
  return failed.length > 0 ? EXIT_FILE_FAILED : EXIT_OK;
}
