import type { SessionSummary } from '../../gateway/sessions-endpoint.ts';
import type { ProxySpend } from './proxy-spend.ts';

/** One session of a running proxy: the ledger's totals and what its calls cost. */
export interface ProxySessionRow {
  readonly summary: SessionSummary;
  /** The model of the session's latest call. */
  readonly model: string | undefined;
  readonly spend: ProxySpend;
}

const HEADER = [
  'session',
  'model',
  'calls',
  'folded',
  'raw tokens',
  'forwarded',
  'input',
  'cache read',
  'cache write',
  'billed $',
  'raw $',
  'saved $',
];
const TEXT_COLUMNS = 2;

const integer = (value: number) => value.toLocaleString('en-US');
/** Four places: one proxy session is often cents. */
const dollars = (value: number) => `${value < 0 ? '-' : ''}$${Math.abs(value).toFixed(4)}`;
const priced = (value: number | null, partial = false) =>
  value === null ? 'unpriced' : `${dollars(value)}${partial ? '+' : ''}`;
const share = (saved: number, raw: number) => (raw > 0 ? ` (${((100 * saved) / raw).toFixed(0)}%)` : '');

/** The ledger's figures a row shows: one session's, or the total's. */
type Figures = Pick<
  SessionSummary,
  | 'session'
  | 'calls'
  | 'folded'
  | 'rawTokens'
  | 'forwardedTokens'
  | 'inputTokens'
  | 'cacheReadTokens'
  | 'cacheWriteTokens'
>;

function cells(summary: Figures, model: string, spend: ProxySpend, partial = false): string[] {
  return [
    summary.session,
    model,
    integer(summary.calls),
    integer(summary.folded),
    integer(summary.rawTokens),
    integer(summary.forwardedTokens),
    integer(summary.inputTokens),
    integer(summary.cacheReadTokens),
    integer(summary.cacheWriteTokens),
    priced(spend.billed, partial),
    priced(spend.raw, partial),
    spend.saved === null || spend.raw === null
      ? 'unpriced'
      : `${priced(spend.saved, partial)}${share(spend.saved, spend.raw)}`,
  ];
}

function totalCells(rows: readonly ProxySessionRow[]): string[] {
  const sum = (pick: (summary: SessionSummary) => number) => rows.reduce((total, row) => total + pick(row.summary), 0);
  const pricedRows = rows.filter((row) => row.spend.billed !== null);
  const money = (pick: (spend: ProxySpend) => number | null) =>
    pricedRows.length === 0 ? null : pricedRows.reduce((total, row) => total + (pick(row.spend) ?? 0), 0);
  const summary: Figures = {
    session: `total (${rows.length} session${rows.length === 1 ? '' : 's'})`,
    calls: sum((s) => s.calls),
    folded: sum((s) => s.folded),
    rawTokens: sum((s) => s.rawTokens),
    forwardedTokens: sum((s) => s.forwardedTokens),
    inputTokens: sum((s) => s.inputTokens),
    cacheReadTokens: sum((s) => s.cacheReadTokens),
    cacheWriteTokens: sum((s) => s.cacheWriteTokens),
  };
  const spend = {
    pricedCalls: 0,
    billed: money((s) => s.billed),
    raw: money((s) => s.raw),
    saved: money((s) => s.saved),
  };
  return cells(summary, '-', spend, pricedRows.length < rows.length);
}

/** What each column is, under the table. */
function notes(rows: readonly ProxySessionRow[], prices: readonly string[]): string[] {
  const lines = [
    "tokens     the proxy's ledger: raw (as the client sent them: system, tools, messages) and forwarded, counted",
    '           with o200k; input, cache read and cache write as the provider reported them.',
    "billed $   the provider's input, cache-read and cache-write tokens of each call at its model's prices",
    '           (writes at the 5-minute price); output is left out: folding does not change it.',
    "raw $      the raw requests under the client's own prompt caching: each call reads the previous call's raw",
    '           tokens from the cache and writes the rest. Calls without usage (errors, aborted) count in no $ column.',
    'saved $    raw $ less billed $, and its share of raw $.',
  ];
  if (prices.length > 0) lines.push('prices', ...prices.map((price) => `           ${price}`));
  if (rows.some((row) => row.spend.billed === null))
    lines.push(
      "unpriced   the model table has no price for the model: never costed at another model's rates;",
      '           + on the total: unpriced sessions are left out of it.',
    );
  return lines;
}

/** The proxy's sessions as an aligned text table: one row per session, the total, then what each column is. */
export function proxySessionsTable(rows: readonly ProxySessionRow[], prices: readonly string[]): string {
  const body = rows.map((row) => cells(row.summary, row.model ?? 'unknown', row.spend));
  const total = totalCells(rows);
  const all = [HEADER, ...body, total];
  const widths = HEADER.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column < TEXT_COLUMNS ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return `${[line(HEADER), rule, ...body.map(line), rule, line(total), '', ...notes(rows, prices)].join('\n')}\n`;
}
