import { FoldOptionsError } from '../../messages/fold-input-error.ts';

/** The part of a Responses `usage` object this reader looks at. */
export interface ResponsesUsageLike {
  readonly input_tokens: number;
  readonly input_tokens_details?: { readonly cached_tokens?: number | null } | null;
  readonly output_tokens?: number;
}

export interface ResponsesUsageReading {
  /** Every prompt token the provider counted, cached or not: the session's `measuredInputTokens`. */
  readonly inputTokens: number;
  /** Prompt tokens read from the provider's cache (`input_tokens_details.cached_tokens`). */
  readonly cachedTokens: number;
  readonly uncachedTokens: number;
  readonly outputTokens: number;
  /** cachedTokens / inputTokens; 0 for an empty prompt. */
  readonly cachedFraction: number;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * Reads a Responses `usage` (from `response.usage`): prompt tokens, how many came from the cache,
 * and output tokens. Undefined when the response carried no usage; a malformed one throws a
 * `FoldOptionsError` (a `FoldInputError`) whose `option` names the field.
 */
export function readResponsesUsage(usage: ResponsesUsageLike | null | undefined): ResponsesUsageReading | undefined {
  if (usage === null || usage === undefined) return undefined;
  if (typeof usage !== 'object') throw new FoldOptionsError('usage', `usage must be an object, got ${typeof usage}`);
  if (!isCount(usage.input_tokens))
    throw new FoldOptionsError(
      'usage.input_tokens',
      `usage.input_tokens must be a non-negative number, got ${String(usage.input_tokens)}`,
    );
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  if (!isCount(cached) || cached > usage.input_tokens)
    throw new FoldOptionsError(
      'usage.input_tokens_details.cached_tokens',
      `usage.input_tokens_details.cached_tokens must be a number from 0 to input_tokens, got ${String(cached)}`,
    );
  const output = usage.output_tokens ?? 0;
  if (!isCount(output))
    throw new FoldOptionsError(
      'usage.output_tokens',
      `usage.output_tokens must be a non-negative number, got ${String(output)}`,
    );
  return {
    inputTokens: usage.input_tokens,
    cachedTokens: cached,
    uncachedTokens: usage.input_tokens - cached,
    outputTokens: output,
    cachedFraction: usage.input_tokens ? cached / usage.input_tokens : 0,
  };
}
