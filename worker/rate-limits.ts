import type { Context } from 'hono';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './app-env.ts';
import { addressRateLimiterName, tenantRateLimiterName } from './durable-object-names.ts';
import type { RateDecision } from './rate-limiter-object.ts';

/** Addresses refused lately, kept in the isolate so a flood costs no Durable Object call. */
const blockedAddresses = new Map<string, number>();
const MAX_BLOCKED_ADDRESSES = 10_000;

/** The client's address as Cloudflare gives it (`wrangler dev` sets it locally too). */
export function clientAddress(c: Context<AppEnv>): string {
  return c.req.header('CF-Connecting-IP')?.trim() || 'unknown';
}

function refusal(limit: number, windowMs: number, retryAfterSeconds: number, whose: string): ApiError {
  return new ApiError(
    'rate-limited',
    `more than ${limit} requests in ${windowMs / 1000} s ${whose}`,
    { retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** Counts one request against the caller's tenant (all its tokens together); throws 429 beyond the limit. */
export async function takeTenantRequest(c: Context<AppEnv>, tenant: string): Promise<RateDecision> {
  const { rateLimitRequests: limit, rateLimitWindowMs: windowMs } = c.var.config;
  const decision = await c.env.RATE_LIMITER.getByName(tenantRateLimiterName(tenant)).take(limit, windowMs);
  if (!decision.allowed) throw refusal(limit, windowMs, decision.retryAfterSeconds, 'for this tenant');
  return decision;
}

/**
 * Counts one request without a valid token against the client's address. Throws 429 beyond the
 * limit (remembered here until its window ends), and returns otherwise so the caller answers 401.
 */
export async function takeUnauthenticatedRequest(c: Context<AppEnv>): Promise<void> {
  const { unauthenticatedRateLimitRequests: limit, rateLimitWindowMs: windowMs } = c.var.config;
  const address = clientAddress(c);
  const now = Date.now();
  const blockedUntil = blockedAddresses.get(address);
  if (blockedUntil !== undefined && blockedUntil > now)
    throw refusal(
      limit,
      windowMs,
      Math.max(1, Math.ceil((blockedUntil - now) / 1000)),
      'without a valid token from this address',
    );
  if (blockedUntil !== undefined) blockedAddresses.delete(address);
  const decision = await c.env.RATE_LIMITER.getByName(addressRateLimiterName(address)).take(limit, windowMs);
  if (decision.allowed) return;
  if (blockedAddresses.size >= MAX_BLOCKED_ADDRESSES)
    blockedAddresses.delete(blockedAddresses.keys().next().value as string);
  blockedAddresses.set(address, now + decision.retryAfterSeconds * 1000);
  throw refusal(limit, windowMs, decision.retryAfterSeconds, 'without a valid token from this address');
}
