import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createGateway, type UpstreamName, VERDICT_HEADER, verdictHeader } from '../../src/gateway/index.ts';
import { createTokenCounter } from '../../src/tokens/index.ts';
import { ApiError } from '../api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { authenticateGatewayToken, TokenConfigurationError, type AuthenticatedCaller } from '../bearer-auth.ts';
import { durableObjectFolder, tenantLedger } from '../gateway-hosting.ts';
import { gatewaySessionSettings } from '../gateway-session-object.ts';
import { checkJsonShape } from '../json-shape.ts';
import { logEvent } from '../log-event.ts';
import { takeTenantRequest, takeUnauthenticatedRequest } from '../rate-limits.ts';
import { readBytesWithin } from '../read-body.ts';

/** The gateway's prefixes: each is one provider, the path after it is the provider's own. */
const PROVIDERS: readonly UpstreamName[] = ['anthropic', 'openai', 'gemini'];

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** Cloudflare's own request headers (`cf-connecting-ip`, `cf-ray`, …): the edge's, not the client's. */
const EDGE_HEADER = /^cf-/;

/** The ledger's counter is unused here (the session objects count), but one per isolate all the same. */
let sharedCounter: ((text: string) => number) | undefined;

/** The error as the provider would shape it, so a client shows its message; the verdict says why. */
function gatewayError(provider: UpstreamName | 'warpfold', error: ApiError, reason: string): Response {
  const body =
    provider === 'anthropic'
      ? { type: 'error', error: { type: error.code, message: `warpfold: ${error.message}` } }
      : provider === 'gemini'
        ? { error: { code: error.status, message: `warpfold: ${error.message}`, status: error.code } }
        : { error: { type: error.code, code: error.code, message: `warpfold: ${error.message}`, ...error.details } };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: {
      ...error.headers,
      'content-type': 'application/json',
      [VERDICT_HEADER]: verdictHeader('passthrough', reason),
    },
  });
}

const REASON_OF_CODE: Partial<Record<ApiError['code'], string>> = {
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  'rate-limited': 'rate-limited',
  'payload-too-large': 'body-too-large',
  'invalid-request': 'too-deep',
  misconfigured: 'misconfigured',
};

/** The token from `x-warpfold-token` only: 401 (or 429 for an address guessing), 503 when misconfigured. */
async function gatewayCaller(c: Context<AppEnv>): Promise<AuthenticatedCaller> {
  try {
    return await authenticateGatewayToken(c.req.header('x-warpfold-token'), c.env);
  } catch (error) {
    if (error instanceof TokenConfigurationError) {
      logEvent('error', 'misconfigured', { requestId: c.var.requestId, reason: error.message });
      throw new ApiError(
        'misconfigured',
        'the service is not configured correctly; its operator can see why in the log',
      );
    }
    if (error instanceof ApiError && error.code === 'unauthorized') await takeUnauthenticatedRequest(c);
    throw error;
  }
}

/** The request the gateway core sees: the provider's own path, the body already read, Cloudflare's headers gone. */
function coreRequest(c: Context<AppEnv>, path: string, body: Uint8Array | null): Request {
  const incoming = new URL(c.req.url);
  const headers = new Headers();
  c.req.raw.headers.forEach((value, name) => {
    if (!EDGE_HEADER.test(name)) headers.append(name, value);
  });
  return new Request(new URL(`${path}${incoming.search}`, incoming.origin), {
    method: c.req.method,
    headers,
    body: body as BodyInit | null,
    signal: c.req.raw.signal,
  });
}

/**
 * The fold gateway on the edge: the gateway core, hosted. The Worker authenticates the tenant
 * (`x-warpfold-token`), applies the limits, and forwards to the provider itself; each session's
 * fold runs in its own Durable Object, which never sees the provider's key.
 */
async function serveGateway(c: Context<AppEnv>, provider: UpstreamName | 'warpfold', path: string) {
  try {
    const caller = await gatewayCaller(c);
    c.set('caller', caller);
    const reads = c.req.method === 'GET' || c.req.method === 'HEAD';
    if (caller.readOnly && !reads) throw new ApiError('forbidden', 'this token is read-only');
    await takeTenantRequest(c, caller.tenant);
    let body: Uint8Array | null = null;
    if (WITH_BODY.has(c.req.method)) {
      body = await readBytesWithin(c.req.raw, c.var.config.gatewayMaxBodyBytes);
      const encoding = (c.req.header('content-encoding') ?? 'identity').trim().toLowerCase();
      // a compressed body is scanned by the core once decoded; the engine refuses deeper values itself
      if (encoding === 'identity' || encoding === '') checkJsonShape(new TextDecoder().decode(body));
    }
    const config = c.var.config;
    const upstream = provider === 'warpfold' ? config.upstreams.anthropic : config.upstreams[provider];
    sharedCounter ??= createTokenCounter();
    const gateway = createGateway({
      folder: durableObjectFolder(c.env, caller.tenant, gatewaySessionSettings(config)),
      ledger: tenantLedger(c.env, caller.tenant),
      // the prefix names the provider, whatever the path's shape
      upstreams: { anthropic: upstream, openai: upstream, gemini: upstream },
      countTokens: sharedCounter,
      waitUntil: (work) => c.executionCtx.waitUntil(work),
      onError: (error) =>
        logEvent('warn', 'gateway-error', {
          requestId: c.var.requestId,
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        }),
    });
    return await gateway.handle(coreRequest(c, path, body));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return gatewayError(provider, error, REASON_OF_CODE[error.code] ?? error.code);
  }
}

export function registerGatewayRoutes(app: OpenAPIHono<AppEnv>): void {
  for (const provider of PROVIDERS)
    app.all(`/${provider}/*`, (c) => serveGateway(c, provider, c.req.path.slice(provider.length + 1)));
  app.get('/warpfold/sessions', (c) => serveGateway(c, 'warpfold', '/warpfold/sessions'));
  app.get('/warpfold/sessions/*', (c) => serveGateway(c, 'warpfold', c.req.path));
}
