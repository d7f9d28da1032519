import { stringLeaves } from '../messages/string-leaves.ts';
import type { CanonicalMessage } from '../messages/types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { sliceWithin } from '../text/safe-cut.ts';
import type { IdentifierKind } from '../text/identifier-kinds.ts';
import { findIdentifiers } from '../text/find-identifiers.ts';
import { BoundedWeakMap } from '../text/bounded-weak-map.ts';
import { exactSize } from '../text/exact-size.ts';

export const CLOSET_MARK = '⌖';

/**
 * The kinds a tool needs back verbatim and no words rebuild: names of things (paths, URLs,
 * symbols, hosts, images) and opaque ids. Slugs, settings, versions, codes and issue numbers read
 * back from the words around them.
 */
const NAMES = new Set<IdentifierKind>(['uuid', 'hash', 'path', 'url', 'host-port', 'symbol', 'image']);

/** Characters kept either side of a value on its line: about a dozen words, enough to say what the value is. */
const WINDOW_CHARS = 60;
/** A bare value's ` · ` separator. */
const ITEM_SEPARATOR_TOKENS = 1;
/** A line's own mark and line break. */
const LINE_TOKENS = 2;
/** The least a closet item costs: a value of a token or more, with its separator. */
const MIN_ITEM_TOKENS = 1 + ITEM_SEPARATOR_TOKENS;

const isSpace = (text: string, at: number) => /\s/.test(text[at]);
/** Whitespace-collapsed text: how a reader (or a cache of lines) compares lines. */
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The words around a value: where they sit on their source line, and the text they make. */
export interface LineWindow {
  readonly text: string;
  readonly line: string;
  readonly left: number;
  readonly right: number;
}

/**
 * The words around `value` on `line`, verbatim: WINDOW_CHARS either side counted with each run
 * of whitespace as one, cut at safe boundaries.
 */
function windowOf(line: string, value: string): LineWindow {
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
  return { text: sliceWithin(line, left, right).trim(), line, left, right };
}

/** The last line of `text` that holds `value` (which holds no line break). */
function lastLineIn(text: string, value: string): string | undefined {
  const at = text.lastIndexOf(value);
  if (at < 0) return undefined;
  const end = text.indexOf('\n', at);
  return text.slice(text.lastIndexOf('\n', at) + 1, end < 0 ? text.length : end);
}

/**
 * The words around `value` on the line of `source` that holds it last. Undefined when no line
 * of `source` holds it.
 */
export function wordsAround(source: string, value: string): LineWindow | undefined {
  const line = value.includes('\n')
    ? source
        .split('\n')
        .reverse()
        .find((text) => text.includes(value))
    : lastLineIn(source, value);
  return line === undefined ? undefined : windowOf(line, value);
}

/**
 * The texts of a message as a reader meets them, in order: reasoning, words, tool output, then
 * each string of each call's arguments (verbatim, so a kept line is one the history holds).
 */
export function messageTexts(message: CanonicalMessage): string[] {
  const texts = [message.reasoning, message.text, ...message.toolResults.map((result) => result.text)];
  for (const call of message.toolCalls) stringLeaves(call.input, texts);
  return texts;
}

/** The line around the last occurrence of `value` in `message`, from any of its texts. */
export function lastLineAround(message: CanonicalMessage, value: string): LineWindow | undefined {
  const texts = messageTexts(message);
  for (let i = texts.length - 1; i >= 0; i--) {
    const found = wordsAround(texts[i], value);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Messages whose identifiers one generation of the memo keeps (see BoundedWeakMap). */
const IDENTIFIER_CACHE_MESSAGES = 1_024;
const identifierCache = new BoundedWeakMap<
  CanonicalMessage,
  ReadonlyArray<{ readonly value: string; readonly kind: IdentifierKind }>
>(IDENTIFIER_CACHE_MESSAGES);

/** Every identifier of a message, from any of its texts, each once; read once per message. */
export function messageIdentifiers(
  message: CanonicalMessage,
): ReadonlyArray<{ readonly value: string; readonly kind: IdentifierKind }> {
  let found = identifierCache.get(message);
  if (!found) {
    const seen = new Set<string>();
    const out: Array<{ value: string; kind: IdentifierKind }> = [];
    for (const text of messageTexts(message)) {
      if (!text) continue;
      for (const { value, kind } of findIdentifiers(text)) {
        if (seen.has(value)) continue;
        seen.add(value);
        out.push({ value, kind });
      }
    }
    identifierCache.set(message, (found = exactSize(out)), 1);
  }
  return found;
}

/** One sighting of an identifier: where it was seen. */
export interface ClosetOccurrence {
  readonly value: string;
  readonly kind: IdentifierKind;
  readonly messageIndex: number;
}

interface Candidate {
  readonly value: string;
  readonly kind: IdentifierKind;
  last: number;
  /** Position of the last sighting among all sightings: orders values seen in one message. */
  order: number;
}

export interface ClosetOptions {
  readonly budgetTokens: number;
  /** True when the view holds the value at a newer sighting (or the host says it needs no line): it is skipped. */
  readonly isPresent: (value: string) => boolean;
  /** True when the view already shows this (whitespace-collapsed) line: it is not repeated. */
  readonly isShown?: (line: string) => boolean;
  /** When given, each kept item is pushed here (value, kind, newest message index), for a fold receipt. */
  readonly kept?: { value: string; kind: IdentifierKind; messageIndex: number }[];
}

/** Renders a closet of prepared candidates for one view: what it already holds and the budget. */
export type ClosetRenderer = (options: ClosetOptions) => string;

/**
 * The Coordinate Closet: for each identifier not already in the view, the line around its last
 * occurrence (the words an agent looks back to), newest first, one copy of each line, within a
 * token budget; a value whose line does not fit is kept bare on one last line. Empty when
 * nothing is missing. The order is worked out once here; a fold that tries several budgets only
 * filters and fills.
 */
export function prepareCloset(
  occurrences: Iterable<ClosetOccurrence>,
  lineOf: (value: string, messageIndex: number) => LineWindow | undefined,
): ClosetRenderer {
  const candidates = new Map<string, Candidate>();
  let order = 0;
  for (const occurrence of occurrences) {
    if (!NAMES.has(occurrence.kind)) continue;
    const entry = candidates.get(occurrence.value);
    order++;
    if (!entry)
      candidates.set(occurrence.value, {
        value: occurrence.value,
        kind: occurrence.kind,
        last: occurrence.messageIndex,
        order,
      });
    else if (occurrence.messageIndex >= entry.last) {
      entry.last = occurrence.messageIndex;
      entry.order = order;
    }
  }
  const ranked = [...candidates.values()].sort((a, b) => b.last - a.last || b.order - a.order);
  const lines = new Map<Candidate, (LineWindow & { key: string; cost: number }) | null>();
  const lineFor = (candidate: Candidate) => {
    let line = lines.get(candidate);
    if (line === undefined) {
      const window = lineOf(candidate.value, candidate.last);
      lines.set(
        candidate,
        (line =
          window === undefined || window.text === candidate.value
            ? null
            : { ...window, key: collapse(window.text), cost: estimateTokens(window.text) + LINE_TOKENS }),
      );
    }
    return line;
  };
  return (options) => {
    // kept windows, one entry per closet line; windows that overlap on one source line share one
    const shown: LineWindow[] = [];
    const shownKeys = new Set<string>();
    let shownText = '';
    const bare: string[] = [];
    let used = 0;
    const keep = (candidate: Candidate) =>
      options.kept?.push({ value: candidate.value, kind: candidate.kind, messageIndex: candidate.last });
    for (const candidate of ranked) {
      // nothing costs less than a bare value on a line of its own: past that, no candidate can be kept
      if (options.budgetTokens - used < MIN_ITEM_TOKENS) break;
      if (options.isPresent(candidate.value)) continue;
      const line = lineFor(candidate);
      if (line && (shownKeys.has(line.key) || options.isShown?.(line.key))) {
        keep(candidate);
        continue;
      }
      if (line) {
        const at = shown.findIndex(
          (kept) => kept.line === line.line && kept.left <= line.right && line.left <= kept.right,
        );
        if (at >= 0) {
          const kept = shown[at];
          const left = Math.min(kept.left, line.left);
          const right = Math.max(kept.right, line.right);
          const text = sliceWithin(line.line, left, right).trim();
          const cost = estimateTokens(text) - estimateTokens(kept.text);
          if (used + cost <= options.budgetTokens) {
            used += cost;
            shown[at] = { text, line: line.line, left, right };
            const key = collapse(text);
            shownKeys.add(line.key);
            shownKeys.add(key);
            shownText += `\n${key}`;
            keep(candidate);
            continue;
          }
        } else if (used + line.cost <= options.budgetTokens) {
          used += line.cost;
          shown.push(line);
          shownKeys.add(line.key);
          shownText += `\n${line.key}`;
          keep(candidate);
          continue;
        }
      }
      // a value another kept line shows needs no bare copy
      if (shownText.includes(candidate.value)) {
        keep(candidate);
        continue;
      }
      const cost = estimateTokens(candidate.value) + ITEM_SEPARATOR_TOKENS + (bare.length ? 0 : LINE_TOKENS);
      if (used + cost > options.budgetTokens) continue;
      used += cost;
      bare.push(candidate.value);
      keep(candidate);
    }
    const out = shown.map((window) => `${CLOSET_MARK} ${window.text}`);
    if (bare.length) out.push(`${CLOSET_MARK} ${bare.join(' · ')}`);
    return out.join('\n');
  };
}

/** The closet of messages [start, end) of a transcript. */
export function renderCloset(
  messages: readonly CanonicalMessage[],
  start: number,
  end: number,
  options: ClosetOptions,
): string {
  const occurrences: ClosetOccurrence[] = [];
  for (let i = start; i < end; i++)
    for (const { value, kind } of messageIdentifiers(messages[i])) occurrences.push({ value, kind, messageIndex: i });
  return prepareCloset(occurrences, (value, index) => lastLineAround(messages[index], value))(options);
}
