/** Who sells the model: decides how its cache is billed and how its images are counted. */
export type ModelProvider =
  | 'anthropic'
  | 'openai'
  | 'google'
  | 'zhipu'
  | 'xai'
  | 'mistral'
  | 'minimax'
  | 'deepseek'
  | 'moonshot'
  | 'alibaba';

/** USD per million tokens, as the provider's pricing page lists them. */
export interface ModelPrices {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  /** A cache hit. */
  readonly cacheReadPerMillion: number;
  /** Writing a 5-minute cache entry; the input price where writes are free (OpenAI, Gemini implicit caching). */
  readonly cacheWriteFiveMinutesPerMillion: number;
  /** Writing a 1-hour cache entry; the 5-minute price where the provider offers no such entry. */
  readonly cacheWriteOneHourPerMillion: number;
  /** A prefix shorter than this is neither written nor read. */
  readonly minimumCacheableTokens: number;
}

export interface ModelEntry {
  /** Lowercase id prefix, matched at a boundary (end of id or a non-alphanumeric character). */
  readonly prefix: string;
  readonly provider: ModelProvider;
  /** Total window (input + output) unless `inputLimitTokens` caps the input side. */
  readonly contextWindowTokens: number;
  readonly inputLimitTokens?: number;
  /** Absent when no price was checked: such a model is shown unpriced, never guessed. */
  readonly prices?: ModelPrices;
  /** The day the entry was checked against `source` (YYYY-MM-DD). */
  readonly checked: string;
  /** The provider page the window and prices come from. */
  readonly source: string;
}
