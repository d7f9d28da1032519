/** Anthropic allows at most this many `cache_control` breakpoints per request. */
export const ANTHROPIC_MAX_BREAKPOINTS = 4;

/** The beta flag that enables the one-hour cache TTL. */
export const ANTHROPIC_EXTENDED_TTL_BETA = 'extended-cache-ttl-2025-04-11';

/** Default marker where a system prompt's volatile tail starts; text before it is the stable head. */
export const DEFAULT_VOLATILE_SYSTEM_MARKER = '## Your Identity';

export type AnthropicCacheTtl = '5m' | '1h';

export interface AnthropicCacheControl {
  readonly type: 'ephemeral';
  readonly ttl?: AnthropicCacheTtl;
}

/** Where a breakpoint sits, in the order the API builds the cache prefix: tools, system, messages. */
export type BreakpointSite = 'tools' | 'system' | 'sealed-boundary' | 'tail';

export interface PlacedBreakpoint {
  readonly site: BreakpointSite | 'caller';
  /** Sort key in prefix order: [section, index, block]. */
  readonly position: readonly [number, number, number];
  readonly ttl: AnthropicCacheTtl;
}

const TTL_RANK: Record<AnthropicCacheTtl, number> = { '5m': 0, '1h': 1 };

export function longerTtl(a: AnthropicCacheTtl, b: AnthropicCacheTtl): AnthropicCacheTtl {
  return TTL_RANK[a] >= TTL_RANK[b] ? a : b;
}

export function shorterTtl(a: AnthropicCacheTtl, b: AnthropicCacheTtl): AnthropicCacheTtl {
  return TTL_RANK[a] <= TTL_RANK[b] ? a : b;
}

export function cacheControl(ttl: AnthropicCacheTtl): AnthropicCacheControl {
  // The 5-minute TTL is the API default: leave it implicit, as most callers write it.
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

export function ttlOf(control: unknown): AnthropicCacheTtl {
  return (control as { ttl?: unknown } | null)?.ttl === '1h' ? '1h' : '5m';
}

export function comparePositions(a: readonly number[], b: readonly number[]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
