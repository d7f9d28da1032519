import { DurableObject } from 'cloudflare:workers';

export interface RateDecision {
  readonly allowed: boolean;
  readonly remaining: number;
  /** Seconds until the window that refused this request ends. */
  readonly retryAfterSeconds: number;
}

/**
 * One per token (named by the token's hash): a fixed-window counter. Counts live in memory: an
 * idle limiter may be evicted and start again at zero, which only ever forgives an idle caller.
 */
export class RateLimiterObject extends DurableObject {
  private windowStart = 0;
  private count = 0;

  take(limit: number, windowMs: number): RateDecision {
    const now = Date.now();
    if (now - this.windowStart >= windowMs) {
      this.windowStart = now - ((now - this.windowStart) % windowMs);
      if (now - this.windowStart >= windowMs) this.windowStart = now;
      this.count = 0;
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((this.windowStart + windowMs - now) / 1000));
    if (this.count >= limit) return { allowed: false, remaining: 0, retryAfterSeconds };
    this.count++;
    return { allowed: true, remaining: limit - this.count, retryAfterSeconds };
  }
}
