export type Cell = string | number | null | undefined;

/** A GitHub Markdown table; numbers are right-aligned. */
export function markdownTable(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = (cell: Cell): string => (cell === null || cell === undefined ? '—' : String(cell));
  const numeric = header.map(
    (_, column) =>
      rows.length > 0 &&
      rows.every((row) => typeof row[column] === 'number' || /^[-$\d.,%x× ]+$/.test(text(row[column]))),
  );
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, column) => (numeric[column] ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(text).join(' | ')} |`),
  ];
  return lines.join('\n');
}

export function formatInteger(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function formatDollars(value: number, digits = 2): string {
  return `$${value.toFixed(digits)}`;
}

export function formatPercent(value: number | null, digits = 1): string {
  return value === null ? '—' : `${Number(value.toFixed(digits))}%`;
}
