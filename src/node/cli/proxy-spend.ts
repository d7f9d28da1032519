import type { LedgerLine } from '../../gateway/ledger.ts';
import type { ModelPrice } from '../../tokens/price-table.ts';

/** What a proxy session's calls cost, from the ledger: billed, and what the raw requests would have been billed. */
export interface ProxySpend {
  /** Calls the provider reported usage for: the only ones either figure counts. */
  readonly pricedCalls: number;
  /** USD: the provider's own input, cache-read and cache-write tokens at the model's prices; null when unpriced. */
  readonly billed: number | null;
  /** USD: each call's raw request under the client's own prompt caching; null when unpriced. */
  readonly raw: number | null;
  readonly saved: number | null;
}

const perToken = (price: ModelPrice) => price.inputPerMillion / 1e6;

/** The input side of a call as the provider reported it (output is the same folded or not, so it is left out). */
function billedCost(line: LedgerLine, price: ModelPrice): number {
  const unit = perToken(price);
  return (
    (line.inputTokens ?? 0) * unit +
    (line.cacheReadTokens ?? 0) * unit * price.cacheReadMultiplier +
    (line.cacheWriteTokens ?? 0) * unit * price.cacheWriteMultiplier
  );
}

/**
 * The raw request under the client's own caching: the previous call's raw tokens read from the
 * cache, the rest written (5-minute price). A prompt under the model's minimum cacheable length is
 * neither read nor written: all fresh input.
 */
function rawCost(tokens: number, previous: number | undefined, price: ModelPrice): number {
  const unit = perToken(price);
  if (tokens < price.minimumCacheableTokens) return tokens * unit;
  const read = previous === undefined || previous < price.minimumCacheableTokens ? 0 : Math.min(previous, tokens);
  return read * unit * price.cacheReadMultiplier + (tokens - read) * unit * price.cacheWriteMultiplier;
}

/** The raw request's size: the ledger's count, or what the provider read where the call has none (it went out as sent). */
const rawTokensOf = (line: LedgerLine) =>
  line.rawTokens ?? (line.inputTokens ?? 0) + (line.cacheReadTokens ?? 0) + (line.cacheWriteTokens ?? 0);

/**
 * Prices a session's ledger lines, each call at its own model's prices (`priceOf`). Calls without
 * the provider's usage (errors, aborted answers) count in neither figure. One unpriced call makes
 * the session unpriced: never a guess at another model's rates.
 */
export function proxySpend(
  lines: readonly LedgerLine[],
  priceOf: (model: string | undefined) => ModelPrice | null,
): ProxySpend {
  let billed = 0;
  let raw = 0;
  let priced = true;
  let pricedCalls = 0;
  let previous: number | undefined;
  for (const line of lines) {
    if (line.inputTokens === undefined) continue;
    pricedCalls++;
    const tokens = rawTokensOf(line);
    const price = priceOf(line.model);
    if (price === null) priced = false;
    else {
      billed += billedCost(line, price);
      raw += rawCost(tokens, previous, price);
    }
    previous = tokens;
  }
  if (!priced) return { pricedCalls, billed: null, raw: null, saved: null };
  return { pricedCalls, billed, raw, saved: raw - billed };
}
