/** The one identifier scanner: the closet, fold lines, receipts, recall and the fold plan all read identifiers through it. */
import { exactSize } from './exact-size.ts';
import { IDENTIFIER_PATTERNS, trimIdentifier, type IdentifierKind } from './identifier-kinds.ts';

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
  const found: NominatedIdentifier[] = [];
  const seen = new Set<string>();
  // spans already taken, as flat sorted [start, end, start, end, …]: claims never overlap
  let claimed: number[] = [];
  for (const { kind, pattern, accept, mayMatch } of IDENTIFIER_PATTERNS) {
    if (!mayMatch(text)) continue;
    // one pattern's matches come in order and never overlap each other, so a moving cursor
    // over the earlier patterns' claims finds any overlap, and this pass's claims merge in after
    const added: number[] = [];
    let cursor = 0;
    // the shared global pattern, run from the start: no match is empty, so exec walks every match
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const value = trimIdentifier(match[0]);
      const start = match.index;
      // issue refs are short by nature (#4827); everything else shorter than six characters is noise
      if (value.length < (kind === 'issue-ref' ? 4 : MIN_LENGTH) || value.length > MAX_LENGTH) continue;
      if (accept && !accept(value)) continue;
      if (text.startsWith('…', start + match[0].length)) continue; // cut off by a display: not exact
      while (cursor < claimed.length && claimed[cursor + 1] <= start) cursor += 2;
      if (cursor < claimed.length && claimed[cursor] < start + value.length) continue;
      added.push(start, start + value.length);
      if (seen.has(value)) continue;
      seen.add(value);
      found.push({ value, kind, offset: start });
    }
    if (added.length) claimed = mergeSpans(claimed, added);
  }
  // callers cache what they are given: one array per line or message
  return exactSize(found.length > 1 ? found.sort((a, b) => a.offset - b.offset) : found);
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
