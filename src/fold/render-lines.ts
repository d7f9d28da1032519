import { LINE_PREFIX, type FoldLine } from './fold-line.ts';

/** Renders picked lines; fragments of one source line join on one line, with `…` where some were dropped. */
export function renderLines(lines: readonly FoldLine[]): string {
  const out: string[] = [];
  let current: FoldLine | undefined;
  let text = '';
  for (const line of lines) {
    if (current && current.lineId === line.lineId) {
      const gap = line.fragment !== current.fragment + 1 && !line.text.startsWith('… ') && !text.endsWith(' …');
      text += gap ? ` … ${line.text}` : ` ${line.text}`;
    } else {
      if (current) out.push(text);
      text = LINE_PREFIX[line.kind] + (line.fragment > 0 && !line.text.startsWith('… ') ? `… ${line.text}` : line.text);
    }
    current = line;
  }
  if (current) out.push(text);
  return out.join('\n');
}
