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
  for (const line of lines) if (!line.mandatory && !hasLine(line.key)) heap.push(line, valueOf(line) / line.estimate);
  while (heap.size) {
    const top = heap.pop();
    if (!top) break;
    const { line } = top;
    if (hasLine(line.key)) continue;
    const score = valueOf(line) / line.estimate;
    if (score <= 0) continue;
    if (score < heap.peekScore()) {
      heap.push(line, score);
      continue;
    }
    const cost = line.estimate * scale;
    if (used + cost > budget) continue;
    used += cost;
    picked.add(line);
    keys.add(line.key);
    for (const key of line.phrases) phrases.add(key);
  }
  return lines.filter((line) => picked.has(line));
}
