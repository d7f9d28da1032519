import { LINE_PREFIX, type FoldLine } from './fold-line.ts';

/** Picked lines grouped by source line: fragments of one source line render as one line. */
export function lineGroups(lines: readonly FoldLine[]): FoldLine[][] {
  const groups: FoldLine[][] = [];
  for (const line of lines) {
    const last = groups[groups.length - 1];
    if (last && last[last.length - 1].lineId === line.lineId) last.push(line);
    else groups.push([line]);
  }
  return groups;
}

/** One source line's picked fragments, joined, with `…` where some were dropped. */
export function renderGroup(group: readonly FoldLine[]): string {
  const [first] = group;
  let text =
    LINE_PREFIX[first.kind] + (first.fragment > 0 && !first.text.startsWith('… ') ? `… ${first.text}` : first.text);
  for (let i = 1; i < group.length; i++) {
    const line = group[i];
    const gap = line.fragment !== group[i - 1].fragment + 1 && !line.text.startsWith('… ') && !text.endsWith(' …');
    text += gap ? ` … ${line.text}` : ` ${line.text}`;
  }
  return text;
}

/** Renders picked lines, one per source line. */
export function renderLines(lines: readonly FoldLine[]): string {
  return lineGroups(lines).map(renderGroup).join('\n');
}
