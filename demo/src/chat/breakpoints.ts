/**
 * The Anthropic request for a folded view, through the library's `prepareAnthropicCachedRequest`:
 * breakpoints at the sealed boundary (the byte-stable prefix the provider keeps cached across
 * calls) and on the rolling tail.
 */
import type { FoldOutcome } from '../../../src/index.ts';
import { prepareAnthropicCachedRequest } from '../../../src/providers/anthropic/index.ts';

export interface AnthropicRequest {
  /** The Messages API body (model, max_tokens, messages with `cache_control`). */
  readonly body: Record<string, unknown>;
  readonly messages: ReadonlyArray<{ role: string; content: unknown }>;
  /** Indexes in `messages` that carry `cache_control`. */
  readonly breakpoints: number[];
  /** The session's own count of the view (its built-in estimator). */
  readonly estimatedTokens: number;
  readonly cacheHot: boolean;
}

const hasCacheControl = (content: unknown) =>
  Array.isArray(content) && content.some((block) => block && typeof block === 'object' && 'cache_control' in block);

export function markAnthropicBreakpoints(outcome: FoldOutcome, model: string): AnthropicRequest {
  const prepared = prepareAnthropicCachedRequest({
    messages: outcome.messages,
    sealedBoundary: outcome.sealedBoundary,
    params: { model, max_tokens: 1024 },
  });
  const messages = prepared.request.messages as ReadonlyArray<{ role: string; content: unknown }>;
  const breakpoints = messages.flatMap((message, index) => (hasCacheControl(message.content) ? [index] : []));
  return {
    body: prepared.request,
    messages,
    breakpoints,
    estimatedTokens: outcome.stats.viewTokens,
    cacheHot: outcome.cacheHot,
  };
}
