import {
  clearMergeCache,
  countTokens as countEncodedTokens,
  DEFAULT_MERGE_CACHE_SIZE,
} from 'gpt-tokenizer/encoding/o200k_base';

// Special-token strings such as "<|endoftext|>" can occur in real transcripts; counted as plain
// text they cost what a provider would charge, instead of throwing mid-benchmark.
const plainTextOptions = { disallowedSpecial: new Set<string>() };

/**
 * gpt-tokenizer remembers the word pieces it split, up to DEFAULT_MERGE_CACHE_SIZE, and once full
 * evicts the oldest one at a time from a Map: V8 keeps deleted entries in place until it rehashes,
 * so each eviction walks past every earlier one, and a long history of varied words (over 100,000
 * distinct pieces) counts slower with every message. A remembered piece takes at least two
 * characters of text (the piece, or one character and what ends it), so a cache cleared after
 * this many characters never fills. Counts are the same either way.
 */
const CLEAR_MERGE_CACHE_AFTER_CHARS = 2 * DEFAULT_MERGE_CACHE_SIZE;
let charsSinceClear = 0;

/** Exact o200k_base token count of `text`. */
export function countTokens(text: string): number {
  charsSinceClear += text.length;
  if (charsSinceClear > CLEAR_MERGE_CACHE_AFTER_CHARS) {
    clearMergeCache();
    charsSinceClear = text.length;
  }
  return countEncodedTokens(text, plainTextOptions);
}

export interface TokenCounterOptions {
  /** Distinct strings remembered before the memo is dropped and rebuilt. */
  readonly memoLimit?: number;
}

/**
 * A memoized `countTokens`: agents resend the same messages on every call, so each distinct
 * string is tokenized once. The memo is cleared when full, which keeps memory bounded.
 */
export function createTokenCounter(options: TokenCounterOptions = {}): (text: string) => number {
  const memoLimit = options.memoLimit ?? 200_000;
  const memo = new Map<string, number>();
  return (text: string): number => {
    let tokens = memo.get(text);
    if (tokens === undefined) {
      tokens = countTokens(text);
      if (memo.size >= memoLimit) memo.clear();
      memo.set(text, tokens);
    }
    return tokens;
  };
}
