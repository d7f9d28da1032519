import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './app-env.ts';
import { authenticate } from './bearer-auth.ts';
import { rateLimiterName } from './durable-object-names.ts';
import { readBodyWithin, requireJsonContentType } from './read-body.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * In front of every authenticated route, in this order: bearer token (401), write permission
 * (403), the token's rate limit (429), then for a body: JSON content type (415) and the size
 * limit while it streams (413). The body is left parsed-ready for the route's validator (400).
 */
export const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const caller = await authenticate(c.req.header('Authorization'), c.env);
  c.set('caller', caller);
  if (caller.readOnly && WRITES.has(c.req.method)) throw new ApiError('forbidden', 'this token is read-only');
  const config = c.var.config;
  const decision = await c.env.RATE_LIMITER.getByName(rateLimiterName(caller.tokenId)).take(config.rateLimitRequests, config.rateLimitWindowMs);
  if (!decision.allowed) {
    throw new ApiError('rate-limited', `more than ${config.rateLimitRequests} requests in ${config.rateLimitWindowMs / 1000} s`, { retryAfterSeconds: decision.retryAfterSeconds }, { 'Retry-After': String(decision.retryAfterSeconds) });
  }
  if (WITH_BODY.has(c.req.method)) {
    requireJsonContentType(c.req.header('Content-Type'));
    const text = await readBodyWithin(c.req.raw, config.maxBodyBytes);
    // Hono's validator reads the body through this cache; the stream itself is spent
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
  }
  await next();
  c.res.headers.set('X-RateLimit-Remaining', String(decision.remaining));
};
