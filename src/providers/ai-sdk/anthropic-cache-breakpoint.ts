import { isRecord } from '../../text/is-record.ts';
import type { AnthropicCacheControl } from '../anthropic/cache-breakpoints.ts';

export const DEFAULT_ANTHROPIC_CACHE_CONTROL: AnthropicCacheControl = { type: 'ephemeral' };

/**
 * The view with Anthropic's cache breakpoint on its sealed boundary: the message at
 * `sealedBoundary` is copied with `providerOptions.anthropic.cacheControl` set (its other
 * provider options kept); every other message is the very same object. While the session stays
 * hot the boundary and its copy are byte-identical, so the cached prefix is read, not rewritten.
 */
export function withAnthropicCacheBreakpoint<MESSAGE extends object>(
  messages: readonly MESSAGE[],
  sealedBoundary: number | null,
  cacheControl: AnthropicCacheControl = DEFAULT_ANTHROPIC_CACHE_CONTROL,
): MESSAGE[] {
  const out = [...messages];
  if (sealedBoundary === null || sealedBoundary < 0 || sealedBoundary >= out.length) return out;
  const message = out[sealedBoundary] as Record<string, unknown>;
  const providerOptions = isRecord(message.providerOptions) ? message.providerOptions : {};
  const anthropic = isRecord(providerOptions.anthropic) ? providerOptions.anthropic : {};
  out[sealedBoundary] = {
    ...message,
    providerOptions: { ...providerOptions, anthropic: { ...anthropic, cacheControl: { ...cacheControl } } },
  } as MESSAGE;
  return out;
}
