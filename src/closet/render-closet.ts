import { argumentValues } from '../messages/plain-text.ts';
import type { CanonicalMessage } from '../messages/types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { sliceWithin } from '../text/safe-cut.ts';
import { extractVerbatimContextLabel } from './context-label.ts';
import { lineShape, type IdentifierKind } from '../text/identifier-kinds.ts';
import { findIdentifiers } from '../text/find-identifiers.ts';

export const CLOSET_MARK = '⌖';

/** What a value of each kind is worth keeping: opaque ids cannot be rebuilt from anything else, symbols mostly can. */
const KIND_WEIGHT: Record<IdentifierKind, number> = {
  uuid: 30,
  hash: 28,
  slug: 26,
  path: 24,
  url: 22,
  image: 22,
  'host-port': 22,
  'key-value': 20,
  'issue-ref': 20,
  'error-code': 18,
  version: 12,
  symbol: 10,
};
const OPAQUE = new Set<IdentifierKind>(['uuid', 'hash']);

// ranking, in the units of KIND_WEIGHT
/** The newest value in the folded span gains this much over the oldest: what was touched last is likeliest next. */
const RECENCY_WEIGHT = 20;
/** Each further sighting adds this much, up to USE_WEIGHT_CAP: a value used again and again matters. */
const USE_WEIGHT = 2;
const USE_WEIGHT_CAP = 10;
/** A value the agent itself wrote (a command, its own words) is one it works with. */
const AGENT_WEIGHT = 15;
/** A value from a line shared by this many lines of one template or more is log spam… */
const SPAM_MIN_LINES = 3;
/** …and loses this much per doubling of that count. */
const SPAM_WEIGHT = 12;
/** Longer sources are prose or whole outputs, not a line with a template. */
const TEMPLATE_MAX_CHARS = 400;
/** Share of the closet that values seen only in the user's words may take: the raw head and pinned instruction hold most of them. */
const USER_LANE_FRACTION = 0.25;

/** Characters kept either side of a value in its window: about a dozen words, enough to say what the value is. */
const WINDOW_CHARS = 60;
/**
 * Share of the closet given to windows, best-ranked values first, when the caller sets none; the
 * rest hold bare values, so more of them survive. All windows cost too many values at tight
 * ceilings; bare values alone left the agent an identifier with nothing to say what it was (dev
 * and dev2, both ceilings). The fold config sets it per ceiling (`closetWindowFraction`).
 */
export const DEFAULT_WINDOW_FRACTION = 0.5;
/** A bare value's ` · ` separator. */
const ITEM_SEPARATOR_TOKENS = 1;
/** A window's own line: its mark and line break. */
const WINDOW_LINE_TOKENS = 2;
/**
 * A value whose whole line is at most this many characters longer than the value is kept as that
 * line, in the bare list: a token or two more says what the value is (`warn_unused_configs = True`,
 * `# tests/test_redaction.py`), where a window would take a line of its own.
 */
const WHOLE_LINE_EXTRA_CHARS = 40;

const isSpace = (text: string, at: number) => /\s/.test(text[at]);

/**
 * The words around `value` on the raw line that holds it, verbatim: WINDOW_CHARS either side
 * counted with each run of whitespace as one, cut at safe boundaries. Undefined when no line of
 * `source` holds it.
 */
export function wordsAround(source: string, value: string): string | undefined {
  const line = value.includes('\n')
    ? source.split('\n').find((text) => text.includes(value))
    : lineHolding(source, value);
  if (line === undefined) return undefined;
  const at = line.indexOf(value);
  let left = at;
  for (let counted = 0; left > 0 && counted < WINDOW_CHARS; counted++) {
    left--;
    while (left > 0 && isSpace(line, left) && isSpace(line, left - 1)) left--;
  }
  let right = at + value.length;
  for (let counted = 0; right < line.length && counted < WINDOW_CHARS; counted++) {
    right++;
    while (right < line.length && isSpace(line, right - 1) && isSpace(line, right)) right++;
  }
  return sliceWithin(line, left, right).trim();
}

/**
 * The first line of `source` that holds `value` (which holds no line break): the line around its
 * first occurrence, found without splitting a long tool output into lines for every value.
 */
function lineHolding(source: string, value: string): string | undefined {
  const at = source.indexOf(value);
  if (at < 0) return undefined;
  const end = source.indexOf('\n', at);
  return source.slice(source.lastIndexOf('\n', at) + 1, end < 0 ? source.length : end);
}

/** One sighting of an identifier: where, in whose words, and the text around it (for its label). */
export interface ClosetOccurrence {
  readonly value: string;
  readonly kind: IdentifierKind;
  readonly source: string;
  readonly messageIndex: number;
  readonly lane: 'agent' | 'user' | 'tool';
  /** `lineShape(source)` when the caller has read it already. */
  readonly shape?: string;
}

const cache = new WeakMap<CanonicalMessage, ClosetOccurrence[]>();

function occurrencesOf(message: CanonicalMessage): ClosetOccurrence[] {
  let found = cache.get(message);
  if (!found) {
    const lanes: Array<[ClosetOccurrence['lane'], string]> = [
      [
        'agent',
        message.role === 'assistant'
          ? [message.text, ...message.toolCalls.map((call) => argumentValues(call.input))].join('\n')
          : '',
      ],
      ['user', message.role === 'user' ? message.text : ''],
      ['tool', message.toolResults.map((result) => result.text).join('\n')],
    ];
    found = lanes.flatMap(([lane, text]) =>
      text
        ? findIdentifiers(text).map(({ value, kind }) => ({
            value,
            kind,
            source: text,
            messageIndex: message.index,
            lane,
          }))
        : [],
    );
    cache.set(message, found);
  }
  return found;
}

interface Candidate {
  value: string;
  kind: IdentifierKind;
  source: string;
  shape: string | undefined;
  last: number;
  uses: number;
  byAgent: boolean;
  fromUser: boolean;
}

export interface ClosetOptions {
  readonly budgetTokens: number;
  /** True when the view already holds the value verbatim, so the closet need not. */
  readonly isPresent: (value: string) => boolean;
  /**
   * True when the view shows the value at its newest sighting in the span. A value present only
   * elsewhere (an older band, an older line) still gets a window of its newest words, never a bare repeat.
   */
  readonly isShownAt?: (value: string, messageIndex: number) => boolean;
  /** Share of the budget the user-text lane may take. */
  readonly userLaneFraction?: number;
  /** Share of the budget given to windows (DEFAULT_WINDOW_FRACTION when absent). */
  readonly windowFraction?: number;
  /** When given, each kept item is pushed here (value, kind, newest message index), for a fold receipt. */
  readonly kept?: { value: string; kind: IdentifierKind; messageIndex: number }[];
}

/** Renders a closet of prepared candidates for one view: what it already holds and the budget. */
export type ClosetRenderer = (options: ClosetOptions) => string;

/**
 * The Coordinate Closet: exact identifiers not already in the view, ranked by kind, recency,
 * use and whether the agent itself used them, within a token budget: the best-ranked each on a
 * line of the words around its last occurrence, the rest bare on one line, each opaque value
 * there with a context label (`7fd5835b ⟦changelog_id⟧`). Empty when nothing is missing. The ranking
 * is worked out once here; a fold that tries several budgets only filters and fills.
 */
export function prepareCloset(
  occurrences: Iterable<ClosetOccurrence>,
  start: number,
  end: number,
  rawSource?: (value: string, messageIndex: number) => string | undefined,
): ClosetRenderer {
  const candidates = new Map<string, Candidate>();
  for (const occurrence of occurrences) {
    const entry = candidates.get(occurrence.value);
    if (entry) {
      entry.last = Math.max(entry.last, occurrence.messageIndex);
      entry.uses++;
      entry.byAgent ||= occurrence.lane === 'agent';
    } else
      candidates.set(occurrence.value, {
        value: occurrence.value,
        kind: occurrence.kind,
        source: occurrence.source,
        shape: occurrence.shape,
        last: occurrence.messageIndex,
        uses: 1,
        byAgent: occurrence.lane === 'agent',
        fromUser: occurrence.lane === 'user',
      });
  }
  const span = Math.max(1, end - start);
  // how many distinct lines share each template: ids from log spam rank below one-off findings
  const shapeOf = (source: string, known: string | undefined) =>
    source.length <= TEMPLATE_MAX_CHARS && !source.includes('\n') ? (known ?? lineShape(source)) : '';
  const shapes = new Map<string, number>();
  const sourceShape = new Map<string, string>();
  for (const candidate of candidates.values()) {
    if (sourceShape.has(candidate.source)) continue;
    const shape = shapeOf(candidate.source, candidate.shape);
    sourceShape.set(candidate.source, shape);
    if (shape) shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  const scores = new Map<Candidate, number>();
  for (const candidate of candidates.values()) {
    const count = shapes.get(sourceShape.get(candidate.source) ?? '') ?? 1;
    const spam = count >= SPAM_MIN_LINES ? SPAM_WEIGHT * Math.log2(count) : 0;
    scores.set(
      candidate,
      KIND_WEIGHT[candidate.kind] +
        (RECENCY_WEIGHT * (candidate.last - start)) / span +
        Math.min(USE_WEIGHT_CAP, candidate.uses * USE_WEIGHT) +
        (candidate.byAgent ? AGENT_WEIGHT : 0) -
        spam,
    );
  }
  const score = (candidate: Candidate) => scores.get(candidate) ?? 0;
  const ranked = [...candidates.values()].sort(
    (a, b) => score(b) - score(a) || a.last - b.last || (a.value < b.value ? -1 : 1),
  );
  // the least any candidate from each rank on can cost: its bare value and separator (a label
  // or a window only adds to that), so a full closet stops the scan instead of pricing the rest
  const leastCostFrom = new Float64Array(ranked.length + 1).fill(Number.POSITIVE_INFINITY);
  for (let i = ranked.length - 1; i >= 0; i--)
    leastCostFrom[i] = Math.min(leastCostFrom[i + 1], estimateTokens(ranked[i].value) + ITEM_SEPARATOR_TOKENS);
  // each candidate's renderings (bare, and in the words around its last occurrence) and sizes, on
  // first need: the window (a search of the raw messages) only once the window share has room for one
  interface Rendering {
    item: string;
    cost: number;
  }
  const items = new Map<Candidate, Rendering & { window?: string; windowCost?: number; line?: Rendering }>();
  const itemOf = (candidate: Candidate) => {
    let entry = items.get(candidate);
    if (!entry) {
      const label = OPAQUE.has(candidate.kind)
        ? extractVerbatimContextLabel(candidate.source, candidate.value)
        : undefined;
      const item = label ? `${candidate.value} ⟦${label}⟧` : candidate.value;
      items.set(candidate, (entry = { item, cost: estimateTokens(item) + ITEM_SEPARATOR_TOKENS }));
    }
    return entry;
  };
  const windowOf = (candidate: Candidate) => {
    const entry = itemOf(candidate);
    if (entry.window === undefined) {
      // a fold line's text is framed and re-spaced: a window comes only from the raw message's own text
      const raw = rawSource?.(candidate.value, candidate.last);
      entry.window = (raw === undefined ? undefined : wordsAround(raw, candidate.value)) ?? entry.item;
      entry.windowCost = estimateTokens(entry.window) + WINDOW_LINE_TOKENS;
    }
    return entry as Rendering & { window: string; windowCost: number; line?: Rendering };
  };
  // the bare rendering: the value's whole line when that line is short, else the value (and label)
  const wholeLineOf = (candidate: Candidate): Rendering => {
    const entry = windowOf(candidate);
    if (entry.line === undefined) {
      const whole =
        entry.item === candidate.value &&
        entry.window !== entry.item &&
        entry.window.length <= candidate.value.length + WHOLE_LINE_EXTRA_CHARS;
      entry.line = whole ? { item: entry.window, cost: estimateTokens(entry.window) + ITEM_SEPARATOR_TOKENS } : entry;
    }
    return entry.line;
  };
  return (options) => {
    const userBudget = options.budgetTokens * (options.userLaneFraction ?? USER_LANE_FRACTION);
    const windowBudget = options.budgetTokens * (options.windowFraction ?? DEFAULT_WINDOW_FRACTION);
    const kept: string[] = [];
    const windows: string[] = [];
    // one line of raw words often holds several values (a diff header, a commit line): it is shown once
    const shownWindows = new Set<string>();
    const inShownWindow = (value: string) => windows.some((line) => line.includes(value));
    const keep = (candidate: Candidate) =>
      options.kept?.push({ value: candidate.value, kind: candidate.kind, messageIndex: candidate.last });
    let used = 0;
    let windowUsed = 0;
    let userUsed = 0;
    let next = 0;
    for (; next < ranked.length; next++) {
      // no candidate left costs less than this: the closet is full (the ranking may run to thousands)
      if (used + leastCostFrom[next] > options.budgetTokens) break;
      const candidate = ranked[next];
      const present = options.isPresent(candidate.value);
      if (present && (!options.isShownAt || options.isShownAt(candidate.value, candidate.last))) continue;
      // a window holds the value and costs at least the value on a line of its own: with less room
      // than that left, it is not searched for (a search of the raw messages, per candidate)
      const bare = itemOf(candidate);
      const windowFits = windowUsed + bare.cost - ITEM_SEPARATOR_TOKENS + WINDOW_LINE_TOKENS <= windowBudget;
      const entry = windowFits ? windowOf(candidate) : bare;
      const asWindow = windowFits && windowUsed + entry.windowCost! <= windowBudget && entry.window !== entry.item;
      const window = asWindow ? entry.window! : '';
      if (asWindow && shownWindows.has(window)) {
        keep(candidate);
        continue;
      }
      let shown: Rendering | undefined;
      if (!asWindow) {
        // shown in the words of a window here: kept already, never repeated bare
        if (inShownWindow(candidate.value)) {
          if (!present) keep(candidate);
          continue;
        }
        // held elsewhere in the view: only a window of its newest words adds anything
        if (present) continue;
        // a value that does not fit bare is not searched for: its whole line would not fit either
        shown = used + bare.cost > options.budgetTokens ? bare : wholeLineOf(candidate);
      }
      const cost = shown ? shown.cost : entry.windowCost!;
      if (used + cost > options.budgetTokens) continue;
      if (candidate.fromUser && !candidate.byAgent) {
        if (userUsed + cost > userBudget) continue;
        userUsed += cost;
      }
      used += cost;
      if (asWindow) {
        windowUsed += cost;
        shownWindows.add(window);
        windows.push(`${CLOSET_MARK} ${window}`);
      } else kept.push(shown!.item);
      keep(candidate);
    }
    // past a full closet only the values its windows show are left to count
    for (; next < ranked.length; next++) {
      const candidate = ranked[next];
      if (!options.isPresent(candidate.value) && inShownWindow(candidate.value)) keep(candidate);
    }
    if (kept.length) windows.push(`${CLOSET_MARK} ${kept.join(' · ')}`);
    return windows.join('\n');
  };
}

/** One closet of `occurrences` (see prepareCloset). */
export function renderClosetFrom(
  occurrences: Iterable<ClosetOccurrence>,
  start: number,
  end: number,
  options: ClosetOptions,
): string {
  return prepareCloset(occurrences, start, end)(options);
}

/** The closet of messages [start, end) of a transcript. */
export function renderCloset(
  messages: readonly CanonicalMessage[],
  start: number,
  end: number,
  options: ClosetOptions,
): string {
  const occurrences: ClosetOccurrence[] = [];
  for (let i = start; i < end; i++) occurrences.push(...occurrencesOf(messages[i]));
  return renderClosetFrom(occurrences, start, end, options);
}
