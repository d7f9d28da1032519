// Input-side prices per model, for the cache-aware cost model. Checked 2026-11-29 against:
// - Anthropic: https://platform.claude.com/docs/en/about-claude/pricing (base input, 5 m / 1 h cache
//   writes at 1.25x / 2x, cache hits at 0.1x) and
//   https://platform.claude.com/docs/en/build-with-claude/prompt-caching ("minimum cacheable prompt
//   length": 1,024 for Sonnet 4.5 / 4.6, Opus 4.1, Opus 4.8; 4,096 for Opus 4.5 / 4.6 and Haiku 4.5;
//   2,048 for Haiku 3.5), quoted in anthropics/anthropic-sdk-python#1194 and the LiteLLM caching docs.
//   One gateway (docs.orq.ai) lists 2,048 for Sonnet 4.6; we follow Anthropic's own page.
// - OpenAI: https://developers.openai.com/api/docs/pricing (GPT-4.1 $2.00, cached $0.50; GPT-5 $1.25,
//   cached $0.125) and https://developers.openai.com/api/docs/guides/prompt-caching (automatic for
//   prompts of 1,024 tokens or more, no write fee).
// - Google: https://ai.google.dev/gemini-api/docs/pricing (2.5 Pro $1.25 and cached $0.125 for prompts
//   up to 200k; 2.5 Flash $0.30, cached $0.03) and https://ai.google.dev/gemini-api/docs/caching
//   (implicit caching, minimum 2,048 tokens for 2.5 Pro and 2.5 Flash, page updated 2026-10-23).
// Prices move: the table is data, and callers may pass their own ModelPrice.

import { WarpfoldError } from '../errors.ts';

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
}

function anthropic(
  model: string,
  inputPerMillion: number,
  outputPerMillion: number,
  minimumCacheableTokens: number,
): ModelPrice {
  return {
    model,
    provider: 'anthropic',
    inputPerMillion,
    outputPerMillion,
    cacheReadMultiplier: 0.1,
    cacheWriteMultiplier: 1.25,
    cacheWriteOneHourMultiplier: 2,
    minimumCacheableTokens,
    cacheLifetimeSeconds: 300,
  };
}

function openai(
  model: string,
  inputPerMillion: number,
  outputPerMillion: number,
  cacheReadMultiplier: number,
): ModelPrice {
  return {
    model,
    provider: 'openai',
    inputPerMillion,
    outputPerMillion,
    cacheReadMultiplier,
    cacheWriteMultiplier: 1,
    cacheWriteOneHourMultiplier: 1,
    minimumCacheableTokens: 1024,
    cacheLifetimeSeconds: 300,
  };
}

function gemini(model: string, inputPerMillion: number, outputPerMillion: number): ModelPrice {
  return {
    model,
    provider: 'gemini',
    inputPerMillion,
    outputPerMillion,
    cacheReadMultiplier: 0.1,
    cacheWriteMultiplier: 1,
    cacheWriteOneHourMultiplier: 1,
    minimumCacheableTokens: 2048,
    cacheLifetimeSeconds: 300,
  };
}

/** The price model of the reference scorer and of BENCHMARK.md: Sonnet-class, 5-minute cache. */
export const DEFAULT_PRICE_MODEL = 'sonnet-class';

export const PRICE_TABLE: Readonly<Record<string, ModelPrice>> = {
  'sonnet-class': anthropic('sonnet-class', 3, 15, 1024),
  'claude-sonnet-4-5': anthropic('claude-sonnet-4-5', 3, 15, 1024),
  'claude-sonnet-4-6': anthropic('claude-sonnet-4-6', 3, 15, 1024),
  'claude-opus-4-8': anthropic('claude-opus-4-8', 5, 25, 1024),
  'claude-opus-4-6': anthropic('claude-opus-4-6', 5, 25, 4096),
  'claude-opus-4-1': anthropic('claude-opus-4-1', 15, 75, 1024),
  'claude-haiku-4-5': anthropic('claude-haiku-4-5', 1, 5, 4096),
  'claude-haiku-3-5': anthropic('claude-haiku-3-5', 0.8, 4, 2048),
  'gpt-4.1': openai('gpt-4.1', 2, 8, 0.25),
  'gpt-4.1-mini': openai('gpt-4.1-mini', 0.4, 1.6, 0.25),
  'gpt-5': openai('gpt-5', 1.25, 10, 0.1),
  'gpt-5-mini': openai('gpt-5-mini', 0.25, 2, 0.1),
  'gemini-2.5-pro': gemini('gemini-2.5-pro', 1.25, 10),
  'gemini-2.5-flash': gemini('gemini-2.5-flash', 0.3, 2.5),
};

/**
 * The price entry for a model id. Dated ids ("claude-sonnet-4-5-20250929", "gpt-4.1-2025-04-14")
 * resolve to their base entry; an unknown id throws rather than silently pricing at zero.
 */
export function resolveModelPrice(model: string | ModelPrice = DEFAULT_PRICE_MODEL): ModelPrice {
  if (typeof model !== 'string') return model;
  const exact = PRICE_TABLE[model];
  if (exact) return exact;
  const undated = model.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  const base = PRICE_TABLE[undated];
  if (base) return base;
  throw new WarpfoldError(
    'unknown-model',
    `no price for model "${model}"; known: ${Object.keys(PRICE_TABLE).join(', ')}`,
    { field: 'model' },
  );
}
