import { exactSize } from './exact-size.ts';

/** Words per phrase: the unit in which an agent repeats itself ("Let me run the tests"). */
const PHRASE_WORDS = 5;

/** Whitespace as phrase keys split words; a fold that cuts words must split the same way. */
export const isSpace = (code: number) =>
  code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 11 || code === 160;

/**
 * Numeric keys of a line's five-word phrases. Words are hashed in one scan (no split, no word
 * strings), then each run of five word hashes is folded into one key.
 */
export function phraseKeys(line: string): number[] {
  const hashes: number[] = [];
  let hash = 0x811c9dc5;
  let inWord = false;
  for (let i = 0; i <= line.length; i++) {
    const code = i < line.length ? line.charCodeAt(i) : 32;
    if (isSpace(code)) {
      if (inWord) hashes.push(hash >>> 0);
      inWord = false;
      hash = 0x811c9dc5;
    } else {
      inWord = true;
      hash = Math.imul(hash ^ code, 0x01000193);
    }
  }
  if (hashes.length < PHRASE_WORDS) return [];
  const keys: number[] = [];
  for (let i = 0; i + PHRASE_WORDS <= hashes.length; i++) {
    let key = 17;
    for (let k = 0; k < PHRASE_WORDS; k++) key = (Math.imul(key, 31) + hashes[i + k]) | 0;
    keys.push(key);
  }
  // callers cache what they are given: one array per line
  return exactSize(keys);
}

/**
 * Adds the phrase keys of every line of `text` to `into`: the keys `phraseKeys` gives line by
 * line, read in one scan without the line and key arrays.
 */
export function addPhraseKeys(text: string, into: Set<number>): void {
  // the current line's last five word hashes, as a ring
  const ring = new Uint32Array(PHRASE_WORDS);
  let words = 0;
  let hash = 0x811c9dc5;
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 10;
    if (isSpace(code)) {
      if (inWord) {
        ring[words % PHRASE_WORDS] = hash >>> 0;
        words++;
        if (words >= PHRASE_WORDS) {
          let key = 17;
          for (let k = words - PHRASE_WORDS; k < words; k++) key = (Math.imul(key, 31) + ring[k % PHRASE_WORDS]) | 0;
          into.add(key);
        }
      }
      inWord = false;
      hash = 0x811c9dc5;
      if (code === 10) words = 0;
    } else {
      inWord = true;
      hash = Math.imul(hash ^ code, 0x01000193);
    }
  }
}

/**
 * How many messages each phrase of the agent's and user's own words occurs in. A phrase the
 * agent has already repeated is one it tends to repeat again, so folds keep such lines first.
 */
export class PhraseIndex {
  private readonly counts = new Map<number, number>();

  addMessage(texts: readonly string[]): void {
    const seen = new Set<number>();
    for (const text of texts) addPhraseKeys(text, seen);
    for (const key of seen) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  count(key: number): number {
    return this.counts.get(key) ?? 0;
  }

  clear(): void {
    this.counts.clear();
  }
}
