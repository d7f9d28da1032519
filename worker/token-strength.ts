/** Tokens shorter than this are refused as a misconfiguration. */
export const MINIMUM_TOKEN_CHARACTERS = 16;
/**
 * The least a token may carry by the estimate below. 24 random bytes in base64 (32 characters)
 * estimate about 140 bits; a 16-character password with repeats or a run of one class stays under.
 */
export const MINIMUM_TOKEN_ENTROPY_BITS = 64;

/**
 * An upper estimate of a token's entropy: its length times the Shannon entropy of its own
 * character frequencies. It cannot see a dictionary word, but it does see repeats and a small
 * alphabet, which is where short hand-made tokens fail.
 */
export function estimatedEntropyBits(token: string): number {
  const counts = new Map<string, number>();
  const characters = Array.from(token);
  for (const character of characters) counts.set(character, (counts.get(character) ?? 0) + 1);
  let perCharacter = 0;
  for (const count of counts.values()) {
    const share = count / characters.length;
    perCharacter -= share * Math.log2(share);
  }
  return perCharacter * characters.length;
}

/** Why a token (or key) is too weak to configure, or null when it is strong enough. */
export function tokenProblem(token: string): string | null {
  if (token.length < MINIMUM_TOKEN_CHARACTERS) return `tokens must be at least ${MINIMUM_TOKEN_CHARACTERS} characters`;
  const bits = estimatedEntropyBits(token);
  if (bits < MINIMUM_TOKEN_ENTROPY_BITS)
    return `the token has too little entropy (about ${Math.floor(bits)} bits, at least ${MINIMUM_TOKEN_ENTROPY_BITS} needed); use e.g. 24 random bytes in base64`;
  return null;
}
