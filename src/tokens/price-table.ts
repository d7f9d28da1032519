// Prices come from the one model table (src/models/model-table.ts), where each entry names the
// provider page and the day it was checked. Prices move: callers may pass their own ModelPrice.

import { WarpfoldError } from '../errors.ts';
import { findModel } from '../models/find-model.ts';
import { MODEL_TABLE } from '../models/model-table.ts';
import type { ModelEntry, ModelPrices } from '../models/types.ts';

export type CacheProvider = 'anthropic' | 'openai' | 'gemini';

export interface ModelPrice {
  readonly model: string;
  readonly provider: CacheProvider;
  /** USD per million uncached input tokens. */
  readonly inputPerMillion: number;
  /** USD per million output tokens (used for the extra calls a summarizer makes). */
  readonly outputPerMillion: number;
  /** Price of a cache hit as a multiple of the input price. */
  readonly cacheReadMultiplier: number;
  /** Price of writing a token to the cache (5-minute entry) as a multiple of the input price; 1 when free. */
  readonly cacheWriteMultiplier: number;
  /** Same, for a 1-hour entry where the provider offers one. */
  readonly cacheWriteOneHourMultiplier: number;
  /** A prefix shorter than this is neither written nor read. */
  readonly minimumCacheableTokens: number;
  /** Seconds an unused cache entry lives (Anthropic's default 5 minutes; OpenAI and Gemini evict after minutes of inactivity). */
  readonly cacheLifetimeSeconds: number;
  /** The pricing page the entry was read from, and the day it was checked. */
  readonly source?: string;
  readonly checked?: string;
}

/** The price model of the reference scorer and of BENCHMARK.md: Sonnet-class, 5-minute cache. */
export const DEFAULT_PRICE_MODEL = 'sonnet-class';

const SCORER_PRICE: ModelPrice = Object.freeze({
  model: DEFAULT_PRICE_MODEL,
  provider: 'anthropic',
  inputPerMillion: 3,
  outputPerMillion: 15,
  cacheReadMultiplier: 0.1,
  cacheWriteMultiplier: 1.25,
  cacheWriteOneHourMultiplier: 2,
  minimumCacheableTokens: 1024,
  cacheLifetimeSeconds: 300,
});

/** A table entry's dollar prices as the cost model's multiples of the input price. */
export function modelPriceOf(entry: ModelEntry & { readonly prices: ModelPrices }): ModelPrice {
  const { prices } = entry;
  const ratio = (value: number) => +(value / prices.inputPerMillion).toFixed(6);
  return Object.freeze({
    model: entry.prefix,
    provider: entry.provider === 'google' ? 'gemini' : entry.provider === 'openai' ? 'openai' : 'anthropic',
    inputPerMillion: prices.inputPerMillion,
    outputPerMillion: prices.outputPerMillion,
    cacheReadMultiplier: ratio(prices.cacheReadPerMillion),
    cacheWriteMultiplier: ratio(prices.cacheWriteFiveMinutesPerMillion),
    cacheWriteOneHourMultiplier: ratio(prices.cacheWriteOneHourPerMillion),
    minimumCacheableTokens: prices.minimumCacheableTokens,
    cacheLifetimeSeconds: 300,
    source: entry.source,
    checked: entry.checked,
  });
}

const hasPrices = (entry: ModelEntry): entry is ModelEntry & { readonly prices: ModelPrices } =>
  entry.prices !== undefined;

/** Every priced model of the table by its id prefix, and the scorer's `sonnet-class`. */
export const PRICE_TABLE: Readonly<Record<string, ModelPrice>> = Object.freeze(
  Object.fromEntries([
    [DEFAULT_PRICE_MODEL, SCORER_PRICE],
    ...MODEL_TABLE.filter(hasPrices).map((entry) => [entry.prefix, modelPriceOf(entry)] as const),
  ]),
);

/** The price of a model id, or null when the table has no price for it (never a guess). */
export function findModelPrice(model: string): ModelPrice | null {
  if (typeof model !== 'string') return null;
  const exact = PRICE_TABLE[model];
  if (exact) return exact;
  const entry = findModel(model);
  return entry !== null && hasPrices(entry) ? (PRICE_TABLE[entry.prefix] ?? null) : null;
}

/**
 * The price entry for a model id. Dated and vendor-prefixed ids ("claude-sonnet-4-5-20250929",
 * "us.anthropic.claude-opus-4-5-20251101-v1:0") resolve to their table entry; an unknown or
 * unpriced id throws rather than silently pricing at zero or at another model's price.
 */
export function resolveModelPrice(model: string | ModelPrice = DEFAULT_PRICE_MODEL): ModelPrice {
  if (typeof model !== 'string') return model;
  const price = findModelPrice(model);
  if (price) return price;
  throw new WarpfoldError(
    'unknown-model',
    `no price for model "${model}"; known: ${Object.keys(PRICE_TABLE).join(', ')}`,
    { field: 'model' },
  );
}
