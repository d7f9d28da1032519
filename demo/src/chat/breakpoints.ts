/**
 * Anthropic cache breakpoints for a folded view: `cache_control` on the last block of the sealed
 * boundary (the byte-stable prefix the provider can keep cached across calls) and on the last
 * message (so the next call reads this one's whole prompt from the cache).
 */
import { estimateTokens, type FoldOutcome } from '../../../src/index.ts';

type Block = Record<string, unknown>;

export interface AnthropicRequest {
  readonly model: string;
  readonly messages: ReadonlyArray<{ role: string; content: unknown }>;
  /** Indexes in `messages` that carry `cache_control`. */
  readonly breakpoints: number[];
  readonly estimatedTokens: number;
  readonly cacheHot: boolean;
}

function withCacheControl(message: { role: string; content: unknown }): { role: string; content: Block[] } {
  const blocks: Block[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : Array.isArray(message.content) ? (message.content as Block[]).map((block) => ({ ...block })) : [];
  if (blocks.length) blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: { type: 'ephemeral' } };
  return { role: message.role, content: blocks };
}

export function markAnthropicBreakpoints(outcome: FoldOutcome, model: string): AnthropicRequest {
  const messages = outcome.messages as unknown as ReadonlyArray<{ role: string; content: unknown }>;
  const breakpoints = [...new Set([outcome.sealedBoundary, messages.length - 1].filter((index): index is number => index !== null && index >= 0))];
  const marked = messages.map((message, index) => (breakpoints.includes(index) ? withCacheControl(message) : message));
  return { model, messages: marked, breakpoints, estimatedTokens: estimateTokens(JSON.stringify(marked)), cacheHot: outcome.cacheHot };
}
