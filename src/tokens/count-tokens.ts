import { countTokens as countEncodedTokens } from 'gpt-tokenizer/encoding/o200k_base';

// Special-token strings such as "<|endoftext|>" can occur in real transcripts; counted as plain
// text they cost what a provider would charge, instead of throwing mid-benchmark.
const plainTextOptions = { disallowedSpecial: new Set<string>() };

/** Exact o200k_base token count of `text`. */
export function countTokens(text: string): number {
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
