import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './app-env.ts';

const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type';
const EXPOSED_HEADERS = 'Retry-After, X-Request-Id, X-RateLimit-Remaining';
/** Browsers may cache a preflight this long (seconds). */
const PREFLIGHT_MAX_AGE = 600;

/**
 * CORS for browser clients, from `CORS_ORIGINS`. A request whose Origin is not allowed (and not
 * the worker's own) is refused with 403 before anything else runs; an allowed preflight is answered
 * here, without auth, as browsers send it without credentials.
 */
export const cors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header('Origin');
  if (origin === undefined || origin === new URL(c.req.url).origin) return next();
  const allowed = c.var.config.corsOrigins;
  const any = allowed.includes('*');
  if (!any && !allowed.includes(origin)) throw new ApiError('forbidden', `origin ${origin} is not allowed`);
  const headers: Record<string, string> = { 'Access-Control-Allow-Origin': any ? '*' : origin, Vary: 'Origin' };
  if (c.req.method === 'OPTIONS' && c.req.header('Access-Control-Request-Method') !== undefined) {
    return new Response(null, {
      status: 204,
      headers: {
        ...headers,
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE),
      },
    });
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  c.res.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
};
