import { isSpace } from '../text/phrase-index.ts';
import { collapse } from './line-templates.ts';
import type { FoldLine } from './fold-line.ts';

/** A max-heap of lines by score: lazy greedy re-scores a line only when it reaches the top. */
class LineHeap {
  private readonly items: Array<{ line: FoldLine; score: number }> = [];
  get size(): number {
    return this.items.length;
  }
  peekScore(): number {
    return this.items.length ? this.items[0].score : Number.NEGATIVE_INFINITY;
  }
  push(line: FoldLine, score: number): void {
    const items = this.items;
    items.push({ line, score });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.above(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }
  pop(): { line: FoldLine; score: number } | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let best = i;
        if (left < items.length && this.above(items[left], items[best])) best = left;
        if (right < items.length && this.above(items[right], items[best])) best = right;
        if (best === i) break;
        [items[i], items[best]] = [items[best], items[i]];
        i = best;
      }
    }
    return top;
  }
  // ties go to the earlier line, so the choice is deterministic
  private above(a: { line: FoldLine; score: number }, b: { line: FoldLine; score: number }): boolean {
    return a.score > b.score || (a.score === b.score && a.line.order < b.line.order);
  }
}

/** Words trimmed off a picked line's ends whose five-word phrases the view already holds. */
interface Trim {
  readonly lead: number;
  readonly trail: number;
  /** Estimated tokens the trim saves. */
  readonly saved: number;
}

const NO_TRIM: Trim = { lead: 0, trail: 0, saved: 0 };
/** Trimming fewer words than this saves less than its `…` marks cost. */
const MIN_TRIM_WORDS = 3;
const TRIMMABLE = new Set<FoldLine['kind']>(['assistant', 'reasoning', 'output', 'user']);

/** Start and end offsets of the words of a line, split as phrase keys split them. */
function wordSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isSpace(text.charCodeAt(i));
    if (space && start >= 0) {
      spans.push([start, i]);
      start = -1;
    } else if (!space && start < 0) start = i;
  }
  return spans;
}

/** The line without its trimmed words, marked with `…` where words were dropped. */
function trimmed(line: FoldLine, trim: Trim): FoldLine {
  const spans = wordSpans(line.text);
  const from = spans[trim.lead][0];
  const to = spans[spans.length - 1 - trim.trail][1];
  const kept = line.text.slice(from, to);
  const text = `${trim.lead ? '… ' : ''}${kept}${trim.trail ? ' …' : ''}`;
  return {
    ...line,
    text,
    // what the band holds of the line, so a sealed band reads back (and restores) as it was built
    key: collapse(kept),
    phrases: line.phrases.slice(trim.lead, line.phrases.length - trim.trail),
    identifiers: line.identifiers.filter((identifier) => text.includes(identifier.value)),
    estimate: line.estimate - trim.saved,
  };
}

export interface SelectionContext {
  /** Phrase keys the view already holds before this fold. */
  readonly presentPhrases: Pick<ReadonlySet<number>, 'has'>;
  /** Whitespace-collapsed lines the view already holds. */
  readonly presentLines: Pick<ReadonlySet<string>, 'has'>;
  /** Recency weight (see LineValueWeights.recency). */
  readonly recency: number;
}

/**
 * Picks lines under an estimated token budget, mandatory lines first, then by expected value per
 * token. A line's words count only for phrases the view does not hold yet, so near-duplicates
 * of kept lines sink. Returns the picked lines in order.
 */
export function selectLines(lines: readonly FoldLine[], budget: number, context: SelectionContext, scale = 1): FoldLine[] {
  if (!lines.length) return [];
  const first = lines[0].messageIndex;
  const span = Math.max(1, lines[lines.length - 1].messageIndex - first);
  // picked here; what the view held before is asked of the context
  const phrases = new Set<number>();
  const keys = new Set<string>();
  const hasPhrase = (key: number) => phrases.has(key) || context.presentPhrases.has(key);
  const hasLine = (key: string) => keys.has(key) || context.presentLines.has(key);
  const picked = new Set<FoldLine>();
  let used = 0;
  const recencyOf = (line: FoldLine) => 1 - context.recency / 2 + (context.recency * (line.messageIndex - first)) / span;
  // a line's leading and trailing words whose every phrase the view holds add nothing: they are
  // cut (marked `…`) so the line costs only its novel middle; lines kept for an identifier stay whole
  const continued = new Set<FoldLine>();
  for (let i = 1; i < lines.length; i++) if (lines[i].lineId === lines[i - 1].lineId) continued.add(lines[i - 1]);
  const trimOf = (line: FoldLine): Trim => {
    const n = line.phrases.length;
    if (!n || line.mandatory || line.identifierValue > 0 || !TRIMMABLE.has(line.kind)) return NO_TRIM;
    let lead = 0;
    while (lead < n && hasPhrase(line.phrases[lead])) lead++;
    if (lead === n) return NO_TRIM;
    let trail = 0;
    while (trail < n - lead && hasPhrase(line.phrases[n - 1 - trail])) trail++;
    // only a source line's outer ends: phrases across the seams of its fragments count too
    if (lead < MIN_TRIM_WORDS || line.fragment > 0) lead = 0;
    if (trail < MIN_TRIM_WORDS || continued.has(line)) trail = 0;
    if (!lead && !trail) return NO_TRIM;
    const words = n + 4;
    return { lead, trail, saved: (line.estimate * (lead + trail)) / words - (lead ? 1 : 0) - (trail ? 1 : 0) };
  };
  const costOf = (line: FoldLine) => line.estimate - trimOf(line).saved;
  const valueOf = (line: FoldLine) => {
    let words = line.wordValue;
    if (line.phrases.length) {
      let novel = 0;
      for (const key of line.phrases) if (!hasPhrase(key)) novel++;
      words *= novel / line.phrases.length;
    }
    return (words + line.identifierValue) * recencyOf(line);
  };
  const heap = new LineHeap();
  for (const line of lines) {
    if (line.mandatory) {
      picked.add(line);
      used += line.estimate * scale;
      for (const key of line.phrases) phrases.add(key);
      keys.add(line.key);
    }
  }
  const replaced = new Map<FoldLine, FoldLine>();
  for (const line of lines) if (!line.mandatory && !hasLine(line.key)) heap.push(line, valueOf(line) / costOf(line));
  while (heap.size) {
    const top = heap.pop();
    if (!top) break;
    const { line } = top;
    if (hasLine(line.key)) continue;
    const trim = trimOf(line);
    const score = valueOf(line) / (line.estimate - trim.saved);
    if (score <= 0) continue;
    if (score < heap.peekScore()) {
      heap.push(line, score);
      continue;
    }
    const cost = (line.estimate - trim.saved) * scale;
    if (used + cost > budget) continue;
    used += cost;
    picked.add(line);
    keys.add(line.key);
    const kept = trim === NO_TRIM ? line : trimmed(line, trim);
    if (kept !== line) replaced.set(line, kept);
    for (const key of kept.phrases) phrases.add(key);
  }
  return lines.filter((line) => picked.has(line)).map((line) => replaced.get(line) ?? line);
}
