import { resolveModelPrice, type ModelPrice } from './price-table.ts';

export interface CallCostInput {
  /** Input tokens of the whole prompt. */
  readonly totalTokens: number;
  /** Tokens of the leading part identical to a prompt still in the provider's cache. */
  readonly cachedPrefixTokens: number;
  /** A model id from PRICE_TABLE (default "sonnet-class") or a custom price entry. */
  readonly model?: string | ModelPrice;
  /** Cache entry lifetime bought on write; "1h" costs more on Anthropic. Default "5m". */
  readonly cacheLifetime?: '5m' | '1h';
  /**
   * Charge the write price on uncached tokens even when the prompt is below the minimum
   * cacheable length. The reference scorer does this; a real provider does not.
   */
  readonly writeBelowMinimum?: boolean;
  /** Output tokens, priced at the model's output price (0 when omitted). */
  readonly outputTokens?: number;
}

export interface CallCost {
  /** Tokens billed as cache hits. */
  readonly cacheReadTokens: number;
  /** Tokens written to the cache (at the write price). */
  readonly cacheWriteTokens: number;
  /** Tokens billed at the plain input price. */
  readonly freshTokens: number;
  readonly cacheReadCost: number;
  readonly cacheWriteCost: number;
  readonly freshCost: number;
  readonly outputCost: number;
  /** Input cost: reads + writes + fresh, USD. */
  readonly inputCost: number;
  /** Input cost plus output cost, USD. */
  readonly totalCost: number;
}

/**
 * Cost of one model call under a prefix cache. A cached prefix shorter than the model's minimum
 * is not a hit. Everything after the hit is written to the cache (a breakpoint at the end of the
 * prompt, as agent loops set it), unless the prompt is too short to be cached at all. Providers
 * without a write fee have a write multiplier of 1, so writes cost the same as fresh input.
 */
export function callCost(input: CallCostInput): CallCost {
  const price = resolveModelPrice(input.model);
  const minimum = price.minimumCacheableTokens;
  const cacheReadTokens =
    input.cachedPrefixTokens >= minimum ? Math.min(input.cachedPrefixTokens, input.totalTokens) : 0;
  const uncachedTokens = input.totalTokens - cacheReadTokens;
  const writable = input.writeBelowMinimum === true || input.totalTokens >= minimum;
  const cacheWriteTokens = writable ? uncachedTokens : 0;
  const freshTokens = uncachedTokens - cacheWriteTokens;
  const writeMultiplier = input.cacheLifetime === '1h' ? price.cacheWriteOneHourMultiplier : price.cacheWriteMultiplier;
  const perToken = price.inputPerMillion / 1e6;
  const cacheReadCost = cacheReadTokens * perToken * price.cacheReadMultiplier;
  const cacheWriteCost = cacheWriteTokens * perToken * writeMultiplier;
  const freshCost = freshTokens * perToken;
  const outputCost = ((input.outputTokens ?? 0) * price.outputPerMillion) / 1e6;
  const inputCost = cacheReadCost + cacheWriteCost + freshCost;
  return {
    cacheReadTokens,
    cacheWriteTokens,
    freshTokens,
    cacheReadCost,
    cacheWriteCost,
    freshCost,
    outputCost,
    inputCost,
    totalCost: inputCost + outputCost,
  };
}
