import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError, type ApiErrorCode } from './api-error.ts';
import type { AppEnv } from './app-env.ts';
import { cors } from './cors.ts';
import { guard, misconfiguredError } from './guard.ts';
import { logEvent } from './log-event.ts';
import { registerAnthropicRoutes } from './routes/anthropic-routes.ts';
import { registerEpisodeRoutes } from './routes/episode-routes.ts';
import { registerFoldRoutes } from './routes/fold-routes.ts';
import { registerGatewayRoutes } from './routes/gateway-routes.ts';
import { API_VERSION, registerHealthRoutes } from './routes/health-routes.ts';
import { registerRailRoutes } from './routes/rail-routes.ts';
import { registerSessionRoutes } from './routes/session-routes.ts';
import { validationError } from './validation-error.ts';
import { readWorkerConfig } from './worker-config.ts';

/** Routes anyone may call: liveness and the API description. */
const PUBLIC_ROUTES = new Set(['/v1/health', '/v1/openapi.json']);

const HTTP_EXCEPTION_CODES: Record<number, ApiErrorCode> = {
  400: 'invalid-request',
  401: 'unauthorized',
  404: 'not-found',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
};

function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  return c.json({ error: error.body(), requestId: c.var.requestId ?? 'unknown' }, error.status as 400, error.headers);
}

function toApiError(error: unknown, c: Context<AppEnv>): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException && HTTP_EXCEPTION_CODES[error.status]) {
    // Hono's own: malformed JSON (400) or an unexpected media type (415)
    return new ApiError(
      HTTP_EXCEPTION_CODES[error.status],
      error.message,
      error.status === 400 ? { field: '(body)' } : {},
    );
  }
  logEvent('error', 'unhandled', {
    requestId: c.var.requestId,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return new ApiError('internal', 'internal error; the request id is in the logs');
}

/** Turns a path into a matcher for the methods it answers, to tell 405 from 404. */
function methodsFor(app: OpenAPIHono<AppEnv>, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/v1/')) continue;
    const pattern = new RegExp(`^${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/]+')}$`);
    if (pattern.test(path)) methods.add(route.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** The whole edge API: `/v1/*` JSON routes, errors as `{ error: { code, message, field? }, requestId }`. */
export function createApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error, result.target);
    },
  });

  app.use('*', async (c, next) => {
    const started = Date.now();
    c.set('requestId', crypto.randomUUID());
    try {
      c.set('config', readWorkerConfig(c.env));
    } catch (error) {
      logEvent('error', 'misconfigured', {
        requestId: c.var.requestId,
        reason: error instanceof Error ? error.message : String(error),
      });
      throw misconfiguredError();
    }
    await next();
    c.res.headers.set('X-Request-Id', c.var.requestId);
    const caller = c.get('caller');
    logEvent('info', 'request', {
      requestId: c.var.requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      ms: Date.now() - started,
      ...(caller
        ? { tenant: caller.tenant, ...(caller.tokenLabel !== undefined ? { token: caller.tokenLabel } : {}) }
        : {}),
    });
  });
  app.use('*', cors);
  // the bench's hook does not exist unless enabled: 404 before anything else looks at the request
  app.use('/v1/sessions/:id/forget', async (c, next) => {
    if (c.env.WARPFOLD_BENCH_HOOKS !== '1') throw new ApiError('not-found', 'no such route');
    await next();
  });
  app.use('/v1/*', async (c, next) =>
    PUBLIC_ROUTES.has(new URL(c.req.url).pathname) && (c.req.method === 'GET' || c.req.method === 'HEAD')
      ? next()
      : guard(c, next),
  );

  registerHealthRoutes(app);
  registerSessionRoutes(app);
  registerFoldRoutes(app);
  registerEpisodeRoutes(app);
  registerRailRoutes(app);
  registerAnthropicRoutes(app);
  registerGatewayRoutes(app);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'A token from WARPFOLD_TOKEN or WARPFOLD_TOKENS.',
  });
  app.doc31('/v1/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'warpfold edge API',
      version: API_VERSION,
      description: 'Deterministic context folding as a service: one Durable Object per fold session.',
    },
  });

  app.notFound((c) => {
    const allowed = methodsFor(app, new URL(c.req.url).pathname);
    if (allowed.length)
      return errorResponse(
        c,
        new ApiError(
          'method-not-allowed',
          `${c.req.method} is not allowed here; use ${allowed.join(', ')}`,
          { allowed },
          { Allow: allowed.join(', ') },
        ),
      );
    return errorResponse(c, new ApiError('not-found', 'no such route'));
  });
  app.onError((error, c) => errorResponse(c, toApiError(error, c)));
  return app;
}
