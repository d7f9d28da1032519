import { basename } from 'node:path';
import { type ReportTotal, RETENTION_TARGET_PERCENT, type SessionFigures } from './session-figures.ts';

export interface Report {
  readonly format: 'warpfold/report';
  readonly version: 2;
  readonly tokenizer: string;
  /** Seconds between model calls in the replay. */
  readonly secondsBetweenCalls: number;
  readonly sessions: SessionFigures[];
  readonly total: ReportTotal;
  /** Files that could not be read, with why. */
  readonly failed: Array<{ file: string; error: string }>;
  /** Each price a row used, with its source and date. */
  readonly prices: string[];
}

const UNPRICED = 'unpriced';
const dollars = (value: number | null): string => (value === null ? UNPRICED : `$${value.toFixed(2)}`);
const integer = (value: number): string => value.toLocaleString('en-US');
const seconds = (milliseconds: number): string =>
  milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
const saving = (raw: number | null, value: number | null): string =>
  value === null || raw === null || raw <= 0
    ? ''
    : ` (${value <= raw ? '-' : '+'}${Math.abs(100 * (1 - value / raw)).toFixed(0)}%)`;
/** Retention beside savings, marked when warpfold's view lost identifiers the agent needed again. */
const retention = (percent: number, below: boolean): string => `${percent.toFixed(1)}%${below ? ' !' : ''}`;

const HEADER = [
  'session',
  'model',
  'price',
  'ceiling',
  'calls',
  'peak in',
  'spent $',
  'raw $',
  'truncate $',
  'clear $',
  'warpfold $',
  'cache hit',
  'retention',
  'fold time',
];

const shortName = (file: string): string => {
  const name = basename(file).replace(/\.jsonl?$/i, '');
  return name.length > 36 ? `${name.slice(0, 35)}…` : name;
};

function spentCell(session: SessionFigures): string {
  if (session.measured === null) return 'not recorded';
  return dollars(session.measured.totalCost);
}

function peakCell(session: SessionFigures): string {
  // measured where the transcript records usage; else the replay's count, starred
  return session.measured === null ? `${integer(session.rawPeakTokens)}*` : integer(session.measured.peakInputTokens);
}

function sessionCells(session: SessionFigures): string[] {
  return [
    shortName(session.file),
    session.model ?? 'unknown',
    session.price?.id ?? UNPRICED,
    `${integer(session.ceiling)} ${session.ceilingSource}`,
    integer(session.calls),
    peakCell(session),
    spentCell(session),
    dollars(session.cost.raw),
    dollars(session.cost.truncate),
    dollars(session.cost.clear),
    `${dollars(session.cost.warpfold)}${saving(session.cost.raw, session.cost.warpfold)}`,
    `${session.warpfoldCachePercent.toFixed(1)}%`,
    retention(session.retentionPercent, session.retentionBelowTarget),
    seconds(session.foldMilliseconds),
  ];
}

function totalCells(total: ReportTotal): string[] {
  const spent = total.spent === null ? 'not recorded' : `${dollars(total.spent)}${total.spentMissing ? '+' : ''}`;
  return [
    `total (${total.sessions} session${total.sessions === 1 ? '' : 's'})`,
    '-',
    '-',
    '-',
    integer(total.calls),
    integer(total.rawPeakTokens),
    spent,
    dollars(total.cost.raw),
    dollars(total.cost.truncate),
    dollars(total.cost.clear),
    `${dollars(total.cost.warpfold)}${saving(total.cost.raw, total.cost.warpfold)}`,
    `${total.warpfoldCachePercent.toFixed(1)}%`,
    retention(total.retentionPercent, total.retentionBelowTarget),
    seconds(total.foldMilliseconds),
  ];
}

/** What each column is, measured or replayed, under the table. */
function notes(report: Report): string[] {
  const lines = [
    'spent $    measured: the usage the transcript records (fresh input, cache reads, 5m and 1h cache writes, output)',
    '           at the row\'s prices; "not recorded" when the transcript holds no usage.',
    'peak in    measured: the largest input one call recorded; * replayed (o200k count) where no usage is recorded.',
    'raw $ … warpfold $',
    `           replayed: input cost of every call, a call every ${report.secondsBetweenCalls} s, with ${report.tokenizer} counts calibrated to the`,
    '           recorded input where there is one (the system prompt, tools and tokenizer the transcript lacks).',
    'ceiling    the fold ceiling and where it came from: flag (--ceiling), model (its budget, at most 200,000),',
    '           default (200,000: no model, or a model without a known window).',
    `retention  identifiers the agent used again still in warpfold's view; ! below ${RETENTION_TARGET_PERCENT}%.`,
  ];
  if (report.prices.length > 0) lines.push('prices', ...report.prices.map((price) => `           ${price}`));
  if (report.sessions.some((session) => session.price === null))
    lines.push('unpriced   no price known for the model: pass --price ID to cost it at a model the table prices.');
  return lines;
}

/** The report as an aligned text table: one row per session, then the total, then what each column is. */
export function reportTable(report: Report): string {
  const rows = report.sessions.map(sessionCells);
  const total = totalCells(report.total);
  const all = [HEADER, ...rows, total];
  const widths = HEADER.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  const textColumns = 4;
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column < textColumns ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(HEADER), rule, ...rows.map(line), rule, line(total), '', ...notes(report)].join('\n') + '\n';
}

const CSV_HEADER = [
  'file',
  'format',
  'model',
  'price',
  'price_source',
  'price_checked',
  'ceiling',
  'ceiling_source',
  'window',
  'calls',
  'calibrated_calls',
  'measured_calls',
  'measured_peak_input_tokens',
  'measured_input_tokens',
  'measured_cache_read_tokens',
  'measured_cache_write_tokens',
  'measured_cache_write_1h_tokens',
  'measured_output_tokens',
  'spent',
  'raw_peak_tokens',
  'overflow_calls',
  'cost_raw',
  'cost_truncate',
  'cost_clear',
  'cost_warpfold',
  'warpfold_cache_hit_percent',
  'warpfold_peak_tokens',
  'retention_at_need_percent',
  'retention_below_target',
  'fold_milliseconds',
  'skipped_lines',
  'errors',
];

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV row per session (no total row: a spreadsheet sums); an empty cell is unpriced or not recorded. */
export function reportCsv(report: Report): string {
  const rows = report.sessions.map((session) => {
    const measured = session.measured;
    return [
      session.file,
      session.format,
      session.model,
      session.price?.id ?? UNPRICED,
      session.price?.source ?? null,
      session.price?.checked ?? null,
      session.ceiling,
      session.ceilingSource,
      session.window,
      session.calls,
      session.calibratedCalls,
      measured?.calls ?? 0,
      measured?.peakInputTokens ?? null,
      measured?.inputTokens ?? null,
      measured?.cacheReadTokens ?? null,
      measured?.cacheWriteTokens ?? null,
      measured?.cacheWriteOneHourTokens ?? null,
      measured?.outputTokens ?? null,
      measured?.totalCost == null ? null : +measured.totalCost.toFixed(4),
      session.rawPeakTokens,
      session.overflowCalls,
      session.cost.raw,
      session.cost.truncate,
      session.cost.clear,
      session.cost.warpfold,
      session.warpfoldCachePercent,
      session.warpfoldPeakTokens,
      session.retentionPercent,
      session.retentionBelowTarget,
      Math.round(session.foldMilliseconds),
      session.skippedLines,
      session.errors,
    ];
  });
  return [CSV_HEADER, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

export function reportJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
