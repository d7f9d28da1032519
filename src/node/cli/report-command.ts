import { TranscriptFormatError } from '../../transcripts/transcript-format-error.ts';
import type { TranscriptIssue } from '../../transcripts/types.ts';
import { choiceOption, integerOption, parseCommandArguments, stringOption } from './arguments.ts';
import type { CliOutput } from './cli-output.ts';
import { ceilingForSession, engineOf } from './context-ceiling.ts';
import { DEFAULT_SESSION_LIMIT, findSessions, type CliSource } from './find-sessions.ts';
import { REPORT_HELP } from './help-texts.ts';
import { loadBaselines, NO_BASELINES } from './load-baselines.ts';
import { priceForSession } from './price-class.ts';
import { createProgress } from './progress-bar.ts';
import { reportCsv, reportJson, reportTable, type Report } from './report-output.ts';
import { CALL_INTERVAL_MILLISECONDS, replayForReport, type ReplayTally } from './report-replay.ts';
import { readSessionFile } from './read-session-file.ts';
import type { ReportTotal, SessionFigures } from './session-figures.ts';
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

function figuresOf(
  file: string,
  format: string,
  model: string | undefined,
  ceiling: number,
  window: number,
  priceClass: string,
  tally: ReplayTally,
  skippedLines: number,
): SessionFigures {
  const baselineCost = (name: string): number | null => {
    const baseline = tally.baselines.get(name);
    return baseline ? rounded(baseline.cost, 4) : null;
  };
  return {
    file,
    format,
    model: model ?? null,
    ceiling,
    window,
    priceClass,
    calls: tally.calls,
    rawPeakTokens: tally.raw.maxTokens,
    overflowCalls: tally.overflowCalls,
    cost: {
      raw: rounded(tally.raw.cost, 4),
      truncate: baselineCost('truncate'),
      clear: baselineCost('clear'),
      warpfold: rounded(tally.warpfold.cost, 4),
    },
    warpfoldCachePercent: tally.warpfold.tokens
      ? rounded((100 * tally.warpfold.cachedTokens) / tally.warpfold.tokens, 1)
      : 0,
    warpfoldTokens: tally.warpfold.tokens,
    warpfoldCachedTokens: tally.warpfold.cachedTokens,
    warpfoldPeakTokens: tally.warpfold.maxTokens,
    retentionPercent: tally.needles ? rounded((100 * tally.needlesKept) / tally.needles, 1) : null,
    needles: tally.needles,
    needlesKept: tally.needlesKept,
    foldMilliseconds: rounded(tally.warpfold.prepareMilliseconds, 0),
    skippedLines,
    errors: tally.warpfold.errors,
  };
}

function totalOf(sessions: readonly SessionFigures[]): ReportTotal {
  const sum = (pick: (session: SessionFigures) => number) =>
    sessions.reduce((total, session) => total + pick(session), 0);
  const sumOrNull = (pick: (session: SessionFigures) => number | null) =>
    sessions.some((session) => pick(session) === null)
      ? null
      : rounded(
          sum((session) => pick(session) ?? 0),
          4,
        );
  const tokens = sum((session) => session.warpfoldTokens);
  const needles = sum((session) => session.needles);
  return {
    sessions: sessions.length,
    calls: sum((session) => session.calls),
    rawPeakTokens: sessions.reduce((peak, session) => Math.max(peak, session.rawPeakTokens), 0),
    overflowCalls: sum((session) => session.overflowCalls),
    cost: {
      raw: rounded(
        sum((session) => session.cost.raw),
        4,
      ),
      truncate: sumOrNull((session) => session.cost.truncate),
      clear: sumOrNull((session) => session.cost.clear),
      warpfold: rounded(
        sum((session) => session.cost.warpfold),
        4,
      ),
    },
    warpfoldCachePercent: tokens ? rounded((100 * sum((session) => session.warpfoldCachedTokens)) / tokens, 1) : 0,
    retentionPercent: needles ? rounded((100 * sum((session) => session.needlesKept)) / needles, 1) : null,
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
  const ceilingOption = integerOption('report', 'ceiling', values.ceiling, 1_000);
  const model = stringOption(values.model);
  const price = stringOption(values.price);
  if (price !== undefined) {
    // an unknown --price is a usage error, said before any replay
    try {
      priceForSession(price, undefined, output);
    } catch (error) {
      throw new UsageError(`--price: ${(error as Error).message}`, 'report');
    }
  }
  const tokenizer = choiceOption('report', 'tokenizer', values.tokenizer, ['o200k', 'estimate'] as const);
  const sources = (['claude', 'codex', 'gemini'] as const).filter((source) => values[source]) as CliSource[];
  if (positionals.length === 0 && sources.length === 0)
    throw new UsageError('name transcript files or folders, or pass --claude, --codex or --gemini', 'report');

  const { paths, empty } = findSessions(positionals, sources, limit);
  for (const folder of empty) output.warn(`no transcripts in ${folder}`);
  const counter = await loadTokenCounter(tokenizer, output);
  const baselines = counter.tokenizer === 'o200k' ? await loadBaselines(output) : NO_BASELINES;
  if (counter.tokenizer !== 'o200k')
    output.noticeOnce(
      'baselines-estimate',
      'truncation and clearing are compared with o200k counts only: their columns stay empty',
    );
  const progress = createProgress(output);
  const sessions: SessionFigures[] = [];
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
    const ceiling = ceilingForSession({ ceiling: ceilingOption, model }, read.metadata.model, engine, output);
    const sessionPrice = priceForSession(price, model ?? read.metadata.model, output);
    const tally = replayForReport(read.messages, {
      ceiling: ceiling.ceiling,
      window: ceiling.window,
      price: sessionPrice,
      countTokens: counter.countTokens,
      baselines: baselines.strategies,
      identifiers: baselines.identifiers,
      measure: baselines.measure,
      onCall: (done, of) => progress.call(done, of),
    });
    progress.done();
    baselines.forget();
    sessions.push(
      figuresOf(
        file,
        read.format,
        ceiling.model,
        ceiling.ceiling,
        ceiling.window,
        sessionPrice.model,
        tally,
        read.issues.length,
      ),
    );
  }
  const report: Report = {
    format: 'warpfold/report',
    version: 1,
    tokenizer: counter.tokenizer,
    secondsBetweenCalls: CALL_INTERVAL_MILLISECONDS / 1000,
    sessions,
    total: totalOf(sessions),
    failed,
  };
  output.stdout.write(values.json ? reportJson(report) : values.csv ? reportCsv(report) : reportTable(report));
  return failed.length > 0 ? EXIT_FILE_FAILED : EXIT_OK;
}
