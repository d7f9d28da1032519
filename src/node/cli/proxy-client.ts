import type { LedgerLine } from '../../gateway/ledger.ts';
import type { SessionSummary } from '../../gateway/sessions-endpoint.ts';
import type { ProviderMessage } from '../../messages/types.ts';
import { UsageError } from './usage-error.ts';

/** `GET /warpfold/sessions/:id/history`, as the gateway serves it. */
export interface ProxyHistory {
  readonly session: string;
  readonly api: string;
  readonly ceiling: number | null;
  readonly engineCeiling: number;
  readonly model: string | null;
  readonly calls: number;
  readonly messages: readonly ProviderMessage[];
}

/** The answer's body text, as the proxy sent it, for the inspector to load. */
export interface ProxyText {
  readonly status: number;
  readonly text: string;
}

export interface ProxyClient {
  /** The proxy's address as given, without a trailing slash. */
  readonly url: string;
  sessions(): Promise<SessionSummary[]>;
  lines(session: string): Promise<LedgerLine[]>;
  history(session: string): Promise<ProxyHistory>;
  /** The history route's answer as it came (status and text), for serving on; never throws for a status. */
  historyText(session: string): Promise<ProxyText>;
}

/** Long enough for a proxy that reads a large ledger; short enough that a stuck one is named. */
const TIMEOUT_MS = 15_000;

/** `--proxy URL`: an http(s) address, the one `warpfold proxy` prints (a path prefix is kept). */
export function proxyUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--proxy: expected the proxy's URL (http://127.0.0.1:PORT), got "${text}"`, 'inspect');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--proxy: expected an http:// or https:// URL, got "${text}"`, 'inspect');
  if (url.username !== '' || url.password !== '')
    throw new UsageError('--proxy: put no credentials in the URL; pass the proxy token with --token', 'inspect');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

const sessionPath = (session: string) => `/warpfold/sessions/${encodeURIComponent(session)}`;

/** The proxy's own message in an error body (`{ error: { type, message } }`), when there is one. */
function errorOf(text: string): { type?: string; message?: string } {
  try {
    const body = JSON.parse(text) as { error?: { type?: unknown; message?: unknown } };
    return {
      ...(typeof body.error?.type === 'string' ? { type: body.error.type } : {}),
      ...(typeof body.error?.message === 'string' ? { message: body.error.message } : {}),
    };
  } catch {
    return {};
  }
}

/** A client of a running proxy's read-only routes; every failure is a UsageError that says what to do. */
export function createProxyClient(url: string, token: string | undefined): ProxyClient {
  const headers: Record<string, string> = token === undefined ? {} : { 'x-warpfold-token': token };

  async function request(path: string): Promise<ProxyText> {
    let response: Response;
    try {
      response = await fetch(`${url}${path}`, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new UsageError(`cannot reach the proxy at ${url} (${why}); is 'warpfold proxy' running there?`, 'inspect');
    }
    const text = await response.text();
    if (response.status === 401)
      throw new UsageError(
        `the proxy at ${url} wants its token: pass --token T (or set WARPFOLD_PROXY_TOKEN)`,
        'inspect',
      );
    return { status: response.status, text };
  }

  async function json<T>(path: string, ok: (body: Record<string, unknown>) => boolean): Promise<T> {
    const { status, text } = await request(path);
    if (status !== 200) {
      const problem = errorOf(text).message ?? `HTTP ${status}`;
      throw new UsageError(`the proxy at ${url} answered ${path}: ${problem}`, 'inspect');
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (body === null || typeof body !== 'object' || !ok(body as Record<string, unknown>))
      throw new UsageError(`${url}${path} is not a warpfold proxy's answer; is --proxy the proxy's URL?`, 'inspect');
    return body as T;
  }

  return {
    url,
    async sessions() {
      const body = await json<{ sessions: SessionSummary[] }>('/warpfold/sessions', (value) =>
        Array.isArray(value.sessions),
      );
      return body.sessions;
    },
    async lines(session) {
      const body = await json<{ lines: LedgerLine[] }>(sessionPath(session), (value) => Array.isArray(value.lines));
      return body.lines;
    },
    historyText(session) {
      return request(`${sessionPath(session)}/history`);
    },
    async history(session) {
      const { status, text } = await request(`${sessionPath(session)}/history`);
      const error = errorOf(text);
      if (status === 404 && error.type === 'not-warm')
        throw new UsageError(
          `session ${session} is not warm: ${error.message ?? 'the proxy holds no history for it'}`,
          'inspect',
        );
      if (status === 404 && error.type === 'unknown-session')
        throw new UsageError(`the proxy at ${url} has no session ${session}`, 'inspect');
      const stale = new UsageError(
        `the proxy at ${url} serves no session histories; is it an older warpfold?`,
        'inspect',
      );
      if (status === 404) throw stale;
      if (status !== 200)
        throw new UsageError(
          `the proxy at ${url} answered the history of ${session}: ${error.message ?? `HTTP ${status}`}`,
          'inspect',
        );
      let body: ProxyHistory;
      try {
        body = JSON.parse(text) as ProxyHistory;
      } catch {
        throw stale;
      }
      if (!Array.isArray(body?.messages) || typeof body.engineCeiling !== 'number') throw stale;
      return body;
    },
  };
}
