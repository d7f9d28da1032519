/** Which API a request speaks, read from its method and path alone. */
export type ApiKind = 'anthropic' | 'openai-responses' | 'openai-chat' | 'gemini';

/** The provider a request goes to. */
export type UpstreamName = 'anthropic' | 'openai' | 'gemini';

export type Route =
  /** A request the gateway folds. */
  | {
      readonly kind: 'fold';
      readonly api: ApiKind;
      readonly upstream: UpstreamName;
      /** Gemini names the model in the path. */
      readonly model?: string;
      readonly streaming?: boolean;
    }
  /** Anthropic token counting: forwarded with the session's current view, never folded anew. */
  | { readonly kind: 'count-tokens'; readonly api: 'anthropic'; readonly upstream: 'anthropic' }
  /** Codex tries a WebSocket first: a 426 makes it fall back to HTTP at once. */
  | { readonly kind: 'refuse-websocket' }
  /** The gateway's own read-only endpoints: the ledger by session, and a warm session's last raw history. */
  | { readonly kind: 'sessions'; readonly id?: string }
  | { readonly kind: 'session-history'; readonly id: string }
  /** Anything else goes to the provider untouched. */
  | { readonly kind: 'forward'; readonly upstream: UpstreamName };

const GEMINI_PATH = /^\/v1(?:beta|alpha|)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

function upstreamByShape(path: string, headers: Headers): UpstreamName {
  if (path.startsWith('/v1beta') || path.startsWith('/v1alpha') || headers.has('x-goog-api-key')) return 'gemini';
  if (path.startsWith('/v1/messages') || headers.has('anthropic-version') || headers.has('x-api-key'))
    return 'anthropic';
  return 'openai';
}

/** Routes a request by method and path (any query string); headers only break ties for forwarded paths. */
export function routeRequest(method: string, url: URL, headers: Headers): Route {
  const path = url.pathname.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  if (path === '/v1/responses' && headers.get('upgrade')?.toLowerCase() === 'websocket')
    return { kind: 'refuse-websocket' };
  if (method === 'GET' && (path === '/warpfold/sessions' || path.startsWith('/warpfold/sessions/'))) {
    const id = path.slice('/warpfold/sessions/'.length);
    if (id === '' || path === '/warpfold/sessions') return { kind: 'sessions' };
    // an id is one encoded segment: a slash in it arrives as %2F
    const history = /^([^/]+)\/history$/.exec(id);
    if (history) return { kind: 'session-history', id: decodeURIComponent(history[1]) };
    return { kind: 'sessions', id: decodeURIComponent(id) };
  }
  if (method === 'POST') {
    if (path === '/v1/messages') return { kind: 'fold', api: 'anthropic', upstream: 'anthropic' };
    if (path === '/v1/messages/count_tokens') return { kind: 'count-tokens', api: 'anthropic', upstream: 'anthropic' };
    if (path === '/v1/responses') return { kind: 'fold', api: 'openai-responses', upstream: 'openai' };
    if (path === '/v1/chat/completions') return { kind: 'fold', api: 'openai-chat', upstream: 'openai' };
    const gemini = GEMINI_PATH.exec(path);
    if (gemini)
      return {
        kind: 'fold',
        api: 'gemini',
        upstream: 'gemini',
        model: decodeURIComponent(gemini[1]),
        streaming: gemini[2] === 'streamGenerateContent',
      };
  }
  return { kind: 'forward', upstream: upstreamByShape(path, headers) };
}

/**
 * The upstream URL for a request: the upstream's origin and base path, then the request's path
 * and query. An upstream given with the API's version segment (`…/v1`) does not double it.
 */
export function upstreamUrl(upstream: string, url: URL): string {
  const base = new URL(upstream);
  let basePath = base.pathname.replace(/\/$/, '');
  const version = /^\/v1(?:beta|alpha)?(?=\/|$)/.exec(url.pathname)?.[0];
  if (version !== undefined && basePath.endsWith(version)) basePath = basePath.slice(0, -version.length);
  return `${base.origin}${basePath}${url.pathname}${url.search}`;
}
