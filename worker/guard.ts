import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './app-env.ts';
import { authenticate, TokenConfigurationError, type AuthenticatedCaller } from './bearer-auth.ts';
import { checkJsonShape } from './json-shape.ts';
import { logEvent } from './log-event.ts';
import { takeTenantRequest, takeUnauthenticatedRequest } from './rate-limits.ts';
import { readBodyWithin, requireJsonContentType } from './read-body.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** What every caller sees when the tokens are misconfigured: the reason goes to the log only. */
export function misconfiguredError(): ApiError {
  return new ApiError('misconfigured', 'the service is not configured correctly; its operator can see why in the log');
}

async function authenticateOrRefuse(c: Parameters<MiddlewareHandler<AppEnv>>[0]): Promise<AuthenticatedCaller> {
  try {
    return await authenticate(c.req.header('Authorization'), c.env);
  } catch (error) {
    if (error instanceof TokenConfigurationError) {
      logEvent('error', 'misconfigured', { requestId: c.var.requestId, reason: error.message });
      throw misconfiguredError();
    }
    // a request without a valid token counts against its address, and answers 429 past the limit
    if (error instanceof ApiError && error.code === 'unauthorized') await takeUnauthenticatedRequest(c);
    throw error;
  }
}

/** A request that carries no body at all (none announced), which needs no media type. */
function hasNoBody(request: Request): boolean {
  return (
    request.body === null ||
    (request.headers.get('Content-Length') === '0' && !request.headers.has('Transfer-Encoding'))
  );
}

/**
 * In front of every authenticated route, in this order: bearer token (401, or 429 for an address
 * past its limit of requests without a valid token), write permission (403), the tenant's rate
 * limit (429), then for a body: JSON content type (415), the size limit while it streams (413)
 * and its nesting depth (400), all before the body is parsed. The body is left parsed-ready for
 * the route's validator (400).
 */
export const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const caller = await authenticateOrRefuse(c);
  c.set('caller', caller);
  if (caller.readOnly && WRITES.has(c.req.method)) throw new ApiError('forbidden', 'this token is read-only');
  const decision = await takeTenantRequest(c, caller.tenant);
  if (WITH_BODY.has(c.req.method)) {
    if (c.req.header('Content-Type') === undefined && hasNoBody(c.req.raw)) {
      (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve('');
    } else {
      requireJsonContentType(c.req.header('Content-Type'));
      const text = await readBodyWithin(c.req.raw, c.var.config.maxBodyBytes);
      checkJsonShape(text);
      // Hono's validator reads the body through this cache; the stream itself is spent
      (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    }
  }
  await next();
  c.res.headers.set('X-RateLimit-Remaining', String(decision.remaining));
};
