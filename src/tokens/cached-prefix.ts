/**
 * Tokens of the leading parts identical to the previous call's: providers cache whole leading
 * blocks, so the cached prefix ends at the first part that changed. `partTokens[i]` is the token
 * count of `currentParts[i]`. The provider's minimum cacheable length is applied by `callCost`.
 */
export function leadingIdenticalTokens(
  previousParts: readonly string[],
  currentParts: readonly string[],
  partTokens: readonly number[],
): number {
  let tokens = 0;
  for (let index = 0; index < currentParts.length && index < previousParts.length; index++) {
    if (currentParts[index] !== previousParts[index]) break;
    tokens += partTokens[index];
  }
  return tokens;
}
