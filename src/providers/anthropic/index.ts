/** Anthropic prompt-cache helpers: a cache-marked Messages request from a prepared view, and usage for the next `prepare`. */
export {
  prepareAnthropicCachedRequest,
  type AnthropicCachedRequest,
  type AnthropicCachedRequestOptions,
  type AnthropicTextBlock,
} from './prepare-anthropic-cached-request.ts';
export { readAnthropicUsage, type AnthropicUsage } from './read-anthropic-usage.ts';
export {
  ANTHROPIC_EXTENDED_TTL_BETA,
  ANTHROPIC_MAX_BREAKPOINTS,
  DEFAULT_VOLATILE_SYSTEM_MARKER,
  type AnthropicCacheControl,
  type AnthropicCacheTtl,
  type BreakpointSite,
  type PlacedBreakpoint,
} from './cache-breakpoints.ts';
