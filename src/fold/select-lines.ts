import { isSpace } from '../text/phrase-index.ts';
import { collapse } from './line-templates.ts';
import type { FoldLine } from './fold-line.ts';

/** A heap entry: a line (by its index in the candidate list) and its score. */
interface Entry {
  readonly index: number;
  readonly score: number;
}

/** A max-heap of lines by score: lazy greedy re-scores a line only when it reaches the top. */
class LineHeap {
  constructor(
    private readonly order: ArrayLike<number>,
    private readonly items: Entry[] = [],
  ) {}
  get size(): number {
    return this.items.length;
  }
  /** An independent heap with the same entries (entries are immutable). */
  copy(): LineHeap {
    return new LineHeap(this.order, this.items.slice());
  }
  peekScore(): number {
    return this.items.length ? this.items[0].score : Number.NEGATIVE_INFINITY;
  }
  push(index: number, score: number): void {
    const items = this.items;
    items.push({ index, score });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.above(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }
  pop(): Entry | undefined {
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
  private above(a: Entry, b: Entry): boolean {
    return a.score > b.score || (a.score === b.score && this.order[a.index] < this.order[b.index]);
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

/** Picks lines under an estimated token budget (scaled by `scale`); returns the picked lines in order. */
export type LineSelector = (budget: number, scale?: number) => FoldLine[];

/**
 * Prepares a selection over `lines`, mandatory lines first, then by expected value per token.
 * A line's words count only for phrases the view does not hold yet, so near-duplicates of kept
 * lines sink. What the view held before is asked once per line here, and the opening heap is
 * built once, so a band that tries several budgets pays for them only in the picking.
 */
export function createLineSelector(lines: readonly FoldLine[], context: SelectionContext): LineSelector {
  const count = lines.length;
  const first = count ? lines[0].messageIndex : 0;
  const span = count ? Math.max(1, lines[count - 1].messageIndex - first) : 1;
  const order = new Float64Array(count);
  const recency = new Float64Array(count);
  const lineHeld = new Uint8Array(count);
  // phrase k of line i is at phraseStart[i] + k; held: the view held that phrase before this fold
  const phraseStart = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) phraseStart[i + 1] = phraseStart[i] + lines[i].phrases.length;
  const phraseHeld = new Uint8Array(phraseStart[count]);
  // a line continued by its next fragment keeps its trailing words: the seam may hold phrases
  const continued = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const line = lines[i];
    order[i] = line.order;
    recency[i] = 1 - context.recency / 2 + (context.recency * (line.messageIndex - first)) / span;
    lineHeld[i] = context.presentLines.has(line.key) ? 1 : 0;
    for (let k = 0; k < line.phrases.length; k++)
      phraseHeld[phraseStart[i] + k] = context.presentPhrases.has(line.phrases[k]) ? 1 : 0;
    if (i > 0 && line.lineId === lines[i - 1].lineId) continued[i - 1] = 1;
  }

  /** Phrases and line keys picked so far in one selection. */
  interface Picking {
    readonly phrases: Set<number>;
    readonly keys: Set<string>;
  }
  const has = (picking: Picking, i: number, k: number) =>
    phraseHeld[phraseStart[i] + k] === 1 || picking.phrases.has(lines[i].phrases[k]);
  const hasLine = (picking: Picking, i: number) => lineHeld[i] === 1 || picking.keys.has(lines[i].key);
  // a line's leading and trailing words whose every phrase the view holds add nothing: they are
  // cut (marked `…`) so the line costs only its novel middle; lines kept for an identifier stay whole
  const trimOf = (picking: Picking, i: number): Trim => {
    const line = lines[i];
    const n = line.phrases.length;
    if (!n || line.mandatory || line.identifierValue > 0 || !TRIMMABLE.has(line.kind)) return NO_TRIM;
    let lead = 0;
    while (lead < n && has(picking, i, lead)) lead++;
    if (lead === n) return NO_TRIM;
    let trail = 0;
    while (trail < n - lead && has(picking, i, n - 1 - trail)) trail++;
    // only a source line's outer ends: phrases across the seams of its fragments count too
    if (lead < MIN_TRIM_WORDS || line.fragment > 0) lead = 0;
    if (trail < MIN_TRIM_WORDS || continued[i] === 1) trail = 0;
    if (!lead && !trail) return NO_TRIM;
    const words = n + 4;
    return { lead, trail, saved: (line.estimate * (lead + trail)) / words - (lead ? 1 : 0) - (trail ? 1 : 0) };
  };
  const valueOf = (picking: Picking, i: number) => {
    const line = lines[i];
    let words = line.wordValue;
    const n = line.phrases.length;
    if (n) {
      let novel = 0;
      for (let k = 0; k < n; k++) if (!has(picking, i, k)) novel++;
      words *= novel / n;
    }
    return (words + line.identifierValue) * recency[i];
  };

  // mandatory lines are picked first, whatever the budget: the opening state is the same for every try
  const mandatory: number[] = [];
  const opening: Picking = { phrases: new Set(), keys: new Set() };
  for (let i = 0; i < count; i++) {
    const line = lines[i];
    if (!line.mandatory) continue;
    mandatory.push(i);
    for (const key of line.phrases) opening.phrases.add(key);
    opening.keys.add(line.key);
  }
  const openingHeap = new LineHeap(order);
  for (let i = 0; i < count; i++) {
    if (lines[i].mandatory || hasLine(opening, i)) continue;
    openingHeap.push(i, valueOf(opening, i) / (lines[i].estimate - trimOf(opening, i).saved));
  }

  return (budget: number, scale = 1): FoldLine[] => {
    const picking: Picking = { phrases: new Set(opening.phrases), keys: new Set(opening.keys) };
    const picked = new Uint8Array(count);
    let used = 0;
    for (const i of mandatory) {
      picked[i] = 1;
      used += lines[i].estimate * scale;
    }
    const replaced = new Map<number, FoldLine>();
    const heap = openingHeap.copy();
    while (heap.size) {
      const top = heap.pop();
      if (!top) break;
      const i = top.index;
      const line = lines[i];
      if (hasLine(picking, i)) continue;
      const trim = trimOf(picking, i);
      const score = valueOf(picking, i) / (line.estimate - trim.saved);
      if (score <= 0) continue;
      if (score < heap.peekScore()) {
        heap.push(i, score);
        continue;
      }
      const cost = (line.estimate - trim.saved) * scale;
      if (used + cost > budget) continue;
      used += cost;
      picked[i] = 1;
      picking.keys.add(line.key);
      const kept = trim === NO_TRIM ? line : trimmed(line, trim);
      if (kept !== line) replaced.set(i, kept);
      for (const key of kept.phrases) picking.phrases.add(key);
    }
    const out: FoldLine[] = [];
    for (let i = 0; i < count; i++) if (picked[i]) out.push(replaced.get(i) ?? lines[i]);
    return out;
  };
}

/** One selection over `lines` under `budget` (see createLineSelector). */
export function selectLines(
  lines: readonly FoldLine[],
  budget: number,
  context: SelectionContext,
  scale = 1,
): FoldLine[] {
  return createLineSelector(lines, context)(budget, scale);
}
