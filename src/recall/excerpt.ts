import type { TokenCounter } from '../messages/transcript.ts';
import { cutAfter, cutBefore, headOf } from '../text/safe-cut.ts';

const GAP_TOKENS = 10;

function gapLine(from: number, to: number): string {
  return from === to ? `⋯ (line ${from} not shown)` : `⋯ (lines ${from}–${to} not shown)`;
}

/** A single over-long line cut to fit, kept around `focus` so the matched term survives. */
function clipLine(line: string, focus: number, budgetTokens: number, countTokens: TokenCounter): string {
  let width = Math.max(16, budgetTokens * 3);
  for (let attempt = 0; attempt < 8; attempt++) {
    const start = cutAfter(line, Math.max(0, Math.min(focus - Math.floor(width / 3), line.length - width)));
    const end = cutBefore(line, start + width);
    const piece = `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
    if (countTokens(piece) <= budgetTokens || width <= 16) return piece;
    width = Math.floor(width * 0.7);
  }
  return headOf(line, 16);
}

function render(lines: readonly string[], windows: ReadonlyArray<readonly [number, number]>): string {
  const out: string[] = [];
  let next = 0;
  for (const [start, end] of windows) {
    if (start > next) out.push(gapLine(next + 1, start));
    for (let i = start; i <= end; i++) out.push(lines[i]);
    next = end + 1;
  }
  if (next < lines.length) out.push(gapLine(next + 1, lines.length));
  return out.join('\n');
}

function mergeWindows(centres: readonly number[], radius: number, lineCount: number): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  for (const centre of centres) {
    const start = Math.max(0, centre - radius);
    const end = Math.min(lineCount - 1, centre + radius);
    const last = windows[windows.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
  }
  return windows;
}

function costOf(windows: ReadonlyArray<readonly [number, number]>, lineTokens: readonly number[]): number {
  let cost = GAP_TOKENS * (windows.length + 1);
  for (const [start, end] of windows) for (let i = start; i <= end; i++) cost += lineTokens[i];
  return cost;
}

/** Head and tail of a result that names no term: how it started and how it ended. */
function headAndTail(
  lines: readonly string[],
  lineTokens: readonly number[],
  budgetTokens: number,
  countTokens: TokenCounter,
): string {
  const available = budgetTokens - GAP_TOKENS;
  let head = 0;
  let spent = 0;
  while (head < lines.length && spent + lineTokens[head] <= available * 0.6) spent += lineTokens[head++];
  let tail = lines.length;
  while (tail > head && spent + lineTokens[tail - 1] <= available) spent += lineTokens[--tail];
  if (head === 0 && tail === lines.length) return clipLine(lines[0], 0, available, countTokens);
  const windows: Array<[number, number]> = [];
  if (head > 0) windows.push([0, head - 1]);
  if (tail < lines.length) windows.push([tail, lines.length - 1]);
  return render(lines, windows);
}

/**
 * A verbatim excerpt of a tool result within `budgetTokens`: the whole text when it fits (and is
 * no larger than `wholeUpToTokens`), else the lines around each occurrence of a term (context
 * narrowing until it fits), else its head and tail. Omitted stretches are marked with their line numbers, so nothing reads as contiguous
 * that was not.
 */
export function excerptResult(
  text: string,
  terms: readonly string[],
  budgetTokens: number,
  contextLines: number,
  countTokens: TokenCounter,
  wholeUpToTokens = budgetTokens,
): string {
  if (budgetTokens <= 0) return '';
  const textTokens = countTokens(text);
  if (textTokens <= budgetTokens && textTokens <= wholeUpToTokens) return text;
  const lines = text.split('\n');
  const lineTokens = lines.map((line) => countTokens(line) + 1);
  const usable = terms.filter((term) => term !== '');
  const matches: number[] = [];
  lines.forEach((line, i) => {
    if (usable.some((term) => line.includes(term))) matches.push(i);
  });
  if (!matches.length)
    return textTokens <= budgetTokens ? text : headAndTail(lines, lineTokens, budgetTokens, countTokens);
  for (let radius = contextLines; radius >= 0; radius--) {
    const windows = mergeWindows(matches, radius, lines.length);
    if (costOf(windows, lineTokens) <= budgetTokens) return render(lines, windows);
  }
  // even bare matching lines overflow: keep the first ones that fit
  const kept: number[] = [];
  for (const line of matches) {
    if (costOf(mergeWindows([...kept, line], 0, lines.length), lineTokens) > budgetTokens) break;
    kept.push(line);
  }
  if (kept.length) return render(lines, mergeWindows(kept, 0, lines.length));
  const line = lines[matches[0]];
  const focus = Math.max(0, ...usable.map((term) => line.indexOf(term)));
  const clipped = clipLine(line, focus, budgetTokens - 2 * GAP_TOKENS, countTokens);
  const copy = [...lines];
  copy[matches[0]] = clipped;
  return render(copy, [[matches[0], matches[0]]]);
}
