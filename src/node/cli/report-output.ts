import { basename } from 'node:path';
import type { ReportTotal, SessionFigures } from './session-figures.ts';

export interface Report {
  readonly format: 'warpfold/report';
  readonly version: 1;
  readonly tokenizer: string;
  /** Seconds between model calls in the replay. */
  readonly secondsBetweenCalls: number;
  readonly sessions: SessionFigures[];
  readonly total: ReportTotal;
  /** Files that could not be read, with why. */
  readonly failed: Array<{ file: string; error: string }>;
}

const dollars = (value: number | null): string => (value === null ? '—' : `$${value.toFixed(value >= 100 ? 0 : 2)}`);
const integer = (value: number): string => value.toLocaleString('en-US');
const percent = (value: number | null): string => (value === null ? '—' : `${value.toFixed(1)}%`);
const seconds = (milliseconds: number): string =>
  milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
const saving = (raw: number, value: number | null): string =>
  value === null || raw <= 0 ? '' : ` (${value <= raw ? '-' : '+'}${Math.abs(100 * (1 - value / raw)).toFixed(0)}%)`;

const HEADER = [
  'session',
  'calls',
  'raw peak',
  'overflow',
  'raw $',
  'truncate $',
  'clear $',
  'warpfold $',
  'cache hit',
  'retention',
  'fold time',
];

function cells(
  name: string,
  row: {
    calls: number;
    rawPeakTokens: number;
    overflowCalls: number;
    cost: SessionFigures['cost'];
    warpfoldCachePercent: number;
    retentionPercent: number | null;
    foldMilliseconds: number;
  },
): string[] {
  return [
    name,
    integer(row.calls),
    integer(row.rawPeakTokens),
    integer(row.overflowCalls),
    dollars(row.cost.raw),
    dollars(row.cost.truncate),
    dollars(row.cost.clear),
    `${dollars(row.cost.warpfold)}${saving(row.cost.raw, row.cost.warpfold)}`,
    percent(row.warpfoldCachePercent),
    percent(row.retentionPercent),
    seconds(row.foldMilliseconds),
  ];
}

const shortName = (file: string): string => {
  const name = basename(file).replace(/\.jsonl?$/i, '');
  return name.length > 40 ? `${name.slice(0, 39)}…` : name;
};

/** The report as an aligned text table: one row per session, then the total. */
export function reportTable(report: Report): string {
  const rows = report.sessions.map((session) => cells(shortName(session.file), session));
  const total = cells(
    `total (${report.total.sessions} session${report.total.sessions === 1 ? '' : 's'})`,
    report.total,
  );
  const all = [HEADER, ...rows, total];
  const widths = HEADER.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const distinct = (values: Array<string | number>) => [...new Set(values)];
  const ceilings = distinct(report.sessions.map((session) => session.ceiling))
    .sort((a, b) => Number(a) - Number(b))
    .map((value) => integer(Number(value)));
  const prices = distinct(report.sessions.map((session) => session.priceClass));
  const settings =
    report.sessions.length === 0
      ? 'no session read'
      : `ceiling ${ceilings.length > 2 ? `${ceilings[0]}–${ceilings.at(-1)}` : ceilings.join(', ')} tokens · prices ${prices.join(', ')} · ${report.tokenizer} tokens · a model call every ${report.secondsBetweenCalls} s`;
  return [line(HEADER), rule, ...rows.map(line), rule, line(total), '', settings].join('\n') + '\n';
}

const CSV_HEADER = [
  'file',
  'format',
  'model',
  'ceiling',
  'window',
  'price_class',
  'calls',
  'raw_peak_tokens',
  'overflow_calls',
  'cost_raw',
  'cost_truncate',
  'cost_clear',
  'cost_warpfold',
  'warpfold_cache_hit_percent',
  'warpfold_peak_tokens',
  'retention_at_need_percent',
  'fold_milliseconds',
  'skipped_lines',
  'errors',
];

function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV row per session (no total row: a spreadsheet sums). */
export function reportCsv(report: Report): string {
  const rows = report.sessions.map((session) => [
    session.file,
    session.format,
    session.model,
    session.ceiling,
    session.window,
    session.priceClass,
    session.calls,
    session.rawPeakTokens,
    session.overflowCalls,
    session.cost.raw,
    session.cost.truncate,
    session.cost.clear,
    session.cost.warpfold,
    session.warpfoldCachePercent,
    session.warpfoldPeakTokens,
    session.retentionPercent,
    Math.round(session.foldMilliseconds),
    session.skippedLines,
    session.errors,
  ]);
  return [CSV_HEADER, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

export function reportJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
