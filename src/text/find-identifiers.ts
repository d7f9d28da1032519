/** The one identifier scanner: the closet, fold lines, receipts, recall and the fold plan all read identifiers through it. */
import { exactSize } from './exact-size.ts';
import {
  IDENTIFIER_PATTERNS,
  trimIdentifier,
  type IdentifierKind,
  type IdentifierPattern,
} from './identifier-kinds.ts';

export interface NominatedIdentifier {
  readonly value: string;
  readonly kind: IdentifierKind;
  /** Offset of the first occurrence in the text. */
  readonly offset: number;
}

const MIN_LENGTH = 6;
const MAX_LENGTH = 200;

/** Identifiers of `text` with their kind, in order of first occurrence, each once. */
export function findIdentifiers(text: string): NominatedIdentifier[] {
  return findIdentifiersWith(text, IDENTIFIER_PATTERNS);
}

/** `findIdentifiers` over the given patterns (tests compare run scans with whole-text scans). */
export function findIdentifiersWith(text: string, patterns: readonly IdentifierPattern[]): NominatedIdentifier[] {
  const found: NominatedIdentifier[] = [];
  const seen = new Set<string>();
  // spans already taken, as flat sorted [start, end, start, end, …]: claims never overlap
  let claimed: number[] = [];
  for (const { kind, pattern, accept, mayMatch, runMark } of patterns) {
    // a run scan looks for its mark first, so the mark test would only scan the text twice
    if (runMark === undefined && !mayMatch(text)) continue;
    // one pattern's matches come in order and never overlap each other, so a moving cursor
    // over the earlier patterns' claims finds any overlap, and this pass's claims merge in after
    const added: number[] = [];
    let cursor = 0;
    scanMatches(pattern, text, runMark, (matched, start) => {
      const value = trimIdentifier(matched);
      // issue refs are short by nature (#4827); everything else shorter than six characters is noise
      if (value.length < (kind === 'issue-ref' ? 4 : MIN_LENGTH) || value.length > MAX_LENGTH) return;
      if (accept && !accept(value)) return;
      if (text.startsWith('…', start + matched.length)) return; // cut off by a display: not exact
      while (cursor < claimed.length && claimed[cursor + 1] <= start) cursor += 2;
      if (cursor < claimed.length && claimed[cursor] < start + value.length) return;
      added.push(start, start + value.length);
      if (seen.has(value)) return;
      seen.add(value);
      found.push({ value, kind, offset: start });
    });
    if (added.length) claimed = mergeSpans(claimed, added);
  }
  // callers cache what they are given: one array per line or message
  return exactSize(found.length > 1 ? found.sort((a, b) => a.offset - b.offset) : found);
}

/** Whitespace that ends a run: a subset of the regex `\s`, so no match holds it and assertions read it as an edge. */
const isRunEnd = (code: number) => code === 32 || (code >= 9 && code <= 13);

/**
 * Every match of the global `pattern` in `text`, in order, with its offset. With a run mark,
 * only the whitespace-free runs holding the mark are scanned: the matches are the same.
 */
export function scanMatches(
  pattern: RegExp,
  text: string,
  runMark: string | RegExp | undefined,
  visit: (matched: string, start: number) => void,
): void {
  if (runMark === undefined) {
    // the shared global pattern, run from the start: no match is empty, so exec walks every match
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) visit(match[0], match.index);
    return;
  }
  // a mark never spans whitespace, so the first one from a run's end is in the next run holding one
  for (let at = markAt(runMark, text, 0); at >= 0; ) {
    let start = at;
    while (start > 0 && !isRunEnd(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && !isRunEnd(text.charCodeAt(end))) end++;
    const run = start === 0 && end === text.length ? text : text.slice(start, end);
    pattern.lastIndex = 0;
    for (let match = pattern.exec(run); match !== null; match = pattern.exec(run)) visit(match[0], start + match.index);
    at = end < text.length ? markAt(runMark, text, end) : -1;
  }
}

/** Where `mark` next occurs in `text` from `from`, or -1. */
function markAt(mark: string | RegExp, text: string, from: number): number {
  if (typeof mark === 'string') return text.indexOf(mark, from);
  mark.lastIndex = from;
  return mark.exec(text)?.index ?? -1;
}

/** Two sorted, mutually disjoint span lists merged into one sorted list. */
function mergeSpans(first: readonly number[], second: readonly number[]): number[] {
  if (!first.length) return second as number[];
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    if (j >= second.length || (i < first.length && first[i] < second[j])) out.push(first[i++], first[i++]);
    else out.push(second[j++], second[j++]);
  }
  return out;
}
