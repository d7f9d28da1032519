import { FoldOptionsError } from '../errors.ts';
import type { WarpfoldStorage } from '../storage/storage-types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { readHistory, sessionIdOf } from './fold-call.ts';
import { clientHeaders, upstreamHeaders } from './forward-headers.ts';
import { memoryLedger, type GatewayLedger, type LedgerLine } from './ledger.ts';
import { readRequestBody } from './read-request-body.ts';
import { requestShape } from './request-shape.ts';
import { routeRequest, upstreamUrl, type ApiKind, type UpstreamName } from './route-request.ts';
import {
  countTokensSessionId,
  createSessionFolder,
  foldHeaders,
  type FolderDecision,
  type SessionFolder,
} from './session-folder.ts';
import { sessionHistoryResponse } from './session-history-endpoint.ts';
import { sessionsResponse } from './sessions-endpoint.ts';
import { tapUsage, type ProviderUsage } from './usage-tap.ts';
import { type CallMarks, verdictHeader, type Verdict } from './verdict.ts';

/** The providers' public endpoints: where requests go unless the host names others. */
export const DEFAULT_UPSTREAMS: Readonly<Record<UpstreamName, string>> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com',
  gemini: 'https://generativelanguage.googleapis.com',
};

export const DEFAULT_MAX_WARM_SESSIONS = 64;
/** Bodies past this are forwarded unread. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** What a host gives the gateway: everything that is not a socket. */
export interface GatewayOptions {
  /** Where sessions persist (any `warpfold/storage` backend); not needed with a `folder`. */
  readonly storage?: WarpfoldStorage;
  /**
   * Where calls fold and sessions live, when not in this gateway's own pool over `storage`: the
   * worker folds in one Durable Object per session while it forwards itself. `ceiling`, `model`
   * and `maxWarmSessions` are then the folder's own.
   */
  readonly folder?: SessionFolder;
  /** The model whose budget is the ceiling when the request's own model is unknown to warpfold/budget. */
  readonly fallbackModel?: { readonly model: string; readonly engine: string };
  /**
   * Told of work that goes on after the answer has been handed back (ledger lines, usage fed
   * back): a host whose request ends with its response (a Worker's `ctx.waitUntil`) keeps it alive.
   */
  readonly waitUntil?: (work: Promise<unknown>) => void;
  /** The host's fetch; it must hand the body back as it came on the wire. Default: the global `fetch`. */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Milliseconds; only the ledger and fold timing read it. Default `Date.now`. */
  readonly now?: () => number;
  readonly upstreams?: Partial<Record<UpstreamName, string>>;
  /** The ceiling for every call without an `x-warpfold-ceiling` header. */
  readonly ceiling?: number;
  /** The model whose budget is the ceiling, instead of each request's model. */
  readonly model?: string;
  /** Forward every request as received; fold on the side and record what would have been sent. */
  readonly shadow?: boolean;
  /** Keep request bodies (as received and as forwarded) in the ledger. */
  readonly logBodies?: boolean;
  readonly maxWarmSessions?: number;
  /** Where ledger lines go. Default: in memory. */
  readonly ledger?: GatewayLedger;
  /** When set, every request must carry it in `x-warpfold-token`. */
  readonly token?: string;
  /**
   * Token counter for the ceiling and the engine: pass `countTokens` from `warpfold/tokens` (o200k,
   * what the Node proxy passes when gpt-tokenizer is installed). Default: the engine's estimator.
   * Either way it is memoized: agents resend the same messages on every call.
   */
  readonly countTokens?: (text: string) => number;
  readonly maxBodyBytes?: number;
  /** Told of a ledger or storage write that failed (the call itself goes on). */
  readonly onError?: (error: unknown) => void;
}

export interface Gateway {
  /** Answers one request: a fetch handler, the same on every host. */
  handle(request: Request): Promise<Response>;
  /** Resolves once every ledger line and session save started so far has landed. */
  idle(): Promise<void>;
  /** Sessions held in memory now. */
  readonly warmSessions: number;
}

/** Reads a stream to its end, for what reading it does on the way. */
async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
  const reader = stream.getReader();
  try {
    while (!(await reader.read()).done);
  } catch {
    // the answer failed or the client went away: the tap has said so
  }
}

/** Distinct texts remembered before the memo starts over, which keeps memory bounded. */
const MEMO_LIMIT = 100_000;

function memoized(count: (text: string) => number): (text: string) => number {
  const memo = new Map<string, number>();
  return (text) => {
    let tokens = memo.get(text);
    if (tokens === undefined) {
      tokens = count(text);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(text, tokens);
    }
    return tokens;
  };
}

const errorBody = (message: string) => JSON.stringify({ type: 'error', error: { type: 'api_error', message } });

function checkOptions(options: GatewayOptions): void {
  if (options === null || typeof options !== 'object') throw new FoldOptionsError('options', 'expected an object');
  if (options.folder !== undefined) {
    if (typeof options.folder?.fold !== 'function')
      throw new FoldOptionsError('folder', 'expected a SessionFolder (createSessionFolder(options))');
  } else if (options.storage === undefined || typeof options.storage.sessions?.load !== 'function')
    throw new FoldOptionsError('storage', 'expected a WarpfoldStorage (createStorage(driver))');
  if (options.ceiling !== undefined && !(Number.isInteger(options.ceiling) && options.ceiling > 0))
    throw new FoldOptionsError('ceiling', `expected a positive integer, got ${String(options.ceiling)}`);
  const warm = options.maxWarmSessions;
  if (warm !== undefined && !(Number.isInteger(warm) && warm >= 1))
    throw new FoldOptionsError('maxWarmSessions', `expected an integer ≥ 1, got ${String(warm)}`);
  for (const [name, url] of Object.entries(options.upstreams ?? {})) {
    try {
      new URL(url as string);
    } catch {
      throw new FoldOptionsError(`upstreams.${name}`, `expected a URL, got ${JSON.stringify(url)}`);
    }
  }
}

/**
 * The fold gateway, free of any runtime: route by path, read the body, pick the session, fold,
 * forward, stream the answer back as it arrives while reading its usage, and write the verdict
 * header and a ledger line. Hosts (Node sockets, a worker) only hand requests in.
 */
export function createGateway(options: GatewayOptions): Gateway {
  checkOptions(options);
  const fetchUpstream = options.fetch ?? ((request: Request) => fetch(request));
  const now = options.now ?? (() => Date.now());
  const upstreams = { ...DEFAULT_UPSTREAMS, ...options.upstreams };
  const ledger = options.ledger ?? memoryLedger();
  const countTokens = memoized(options.countTokens ?? estimateTokens);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const shadow = options.shadow === true;
  const folder =
    options.folder ??
    createSessionFolder({
      storage: options.storage as WarpfoldStorage,
      countTokens,
      now,
      maxWarmSessions: options.maxWarmSessions ?? DEFAULT_MAX_WARM_SESSIONS,
      ceiling: options.ceiling,
      model: options.model,
      fallbackModel: options.fallbackModel,
    });
  const local = options.folder === undefined;
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const settled = work.catch((error) => options.onError?.(error)).finally(() => pending.delete(settled));
    pending.add(settled);
    options.waitUntil?.(settled);
  };
  const stamp = () => new Date(now()).toISOString();

  async function forward(
    request: Request,
    upstream: UpstreamName,
    body: BodyInit | null,
    rewritten: boolean,
  ): Promise<Response> {
    const url = new URL(request.url);
    return fetchUpstream(
      new Request(upstreamUrl(upstreams[upstream], url), {
        method: request.method,
        headers: upstreamHeaders(request.headers, rewritten),
        body,
        signal: request.signal,
        // a stream body (a forwarded path) goes out as it comes
        ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit),
    );
  }

  /** Sends the request on and streams the answer back, calling `done` with the usage when it ends. */
  async function relay(
    request: Request,
    upstream: UpstreamName,
    body: BodyInit | null,
    rewritten: boolean,
    verdict: string,
    usageApi: ApiKind | undefined,
    streaming: boolean,
    done: (status: number, usage: ProviderUsage | undefined, aborted: boolean) => void,
    marks: CallMarks = {},
  ): Promise<Response> {
    let answer: Response;
    try {
      answer = await forward(request, upstream, body, rewritten);
    } catch (error) {
      const aborted = request.signal.aborted;
      done(aborted ? 499 : 502, undefined, aborted);
      return new Response(
        errorBody(`warpfold: the upstream could not be reached: ${String((error as Error)?.message ?? error)}`),
        {
          status: 502,
          headers: { 'content-type': 'application/json', 'x-warpfold-verdict': verdict },
        },
      );
    }
    const headers = clientHeaders(answer.headers, verdict, marks);
    const encoding = (answer.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
    const isStream = streaming || (answer.headers.get('content-type') ?? '').includes('text/event-stream');
    const report = (usage: ProviderUsage | undefined, aborted: boolean) => done(answer.status, usage, aborted);
    if (answer.body === null || usageApi === undefined) {
      done(answer.status, undefined, false);
      return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
    }
    if (encoding === 'identity') {
      const tapped = tapUsage(answer.body, usageApi, isStream, report);
      return new Response(tapped, { status: answer.status, statusText: answer.statusText, headers });
    }
    // a compressed answer goes to the client as it came; a decompressed copy is read for the usage
    const [toClient, toReader] = answer.body.tee();
    let decoded: ReadableStream<Uint8Array> | undefined;
    try {
      decoded = toReader.pipeThrough(
        new DecompressionStream(encoding as ConstructorParameters<typeof DecompressionStream>[0]),
      );
    } catch {
      toReader.cancel().catch(() => undefined);
      done(answer.status, undefined, false);
    }
    if (decoded !== undefined) void drain(tapUsage(decoded, usageApi, isStream, report));
    return new Response(toClient, { status: answer.status, statusText: answer.statusText, headers });
  }

  function ledgerLine(
    base: LedgerLine,
    status: number,
    usage: ProviderUsage | undefined,
    aborted: boolean,
  ): LedgerLine {
    return {
      ...base,
      status,
      ...(usage === undefined
        ? {}
        : {
            inputTokens: usage.inputTokens,
            cacheReadTokens: usage.cacheReadTokens,
            cacheWriteTokens: usage.cacheWriteTokens,
            outputTokens: usage.outputTokens,
          }),
      ...(aborted ? { aborted: true } : {}),
    };
  }

  async function handleFold(
    request: Request,
    api: ApiKind,
    upstream: UpstreamName,
    pathModel: string | undefined,
    streamingPath: boolean,
  ): Promise<Response> {
    const time = stamp();
    const bytes = new Uint8Array(await request.arrayBuffer());
    const reading = await readRequestBody(bytes, request.headers.get('content-encoding'), maxBodyBytes);
    /** A body the gateway cannot read goes on as it came, with its reason. */
    const unread = (reason: string) => {
      const base: LedgerLine = { time, api, verdict: 'passthrough', reason };
      return relay(
        request,
        upstream,
        bytes,
        false,
        verdictHeader('passthrough', reason),
        api,
        streamingPath,
        (status, usage, aborted) => track(Promise.resolve(ledger.append(ledgerLine(base, status, usage, aborted)))),
      );
    };
    if (!reading.ok) return unread(reading.reason);
    let body: unknown;
    try {
      body = JSON.parse(reading.text);
    } catch {
      body = undefined;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return unread('malformed-json');
    const record = body as Record<string, unknown>;
    const history = readHistory(requestShape(api), reading.text, record);
    if (!history.ok) return unread(history.reason);
    let decision: FolderDecision;
    try {
      decision = await folder.fold({
        api,
        sessionId: sessionIdOf(api, reading.text, history.layout, request.headers, record),
        text: reading.text,
        ...(local ? { body: record } : {}),
        headers: foldHeaders(request.headers),
        ...(pathModel !== undefined ? { pathModel } : {}),
        shadow,
      });
    } catch (error) {
      // storage or anything else unexpected: the client's call still goes through, unchanged
      options.onError?.(error);
      decision = { folded: false, reason: 'gateway-error', overheadTokens: 0 };
    }
    const folded = decision.folded && decision.body !== undefined && !shadow;
    const verdict: Verdict = shadow ? 'shadow' : decision.folded ? 'folded' : 'passthrough';
    const reason = shadow ? (decision.folded ? undefined : decision.reason) : decision.reason;
    const base: LedgerLine = {
      time,
      api,
      ...(decision.session ? { session: decision.session } : {}),
      ...(typeof record.model === 'string' || pathModel !== undefined
        ? { model: typeof record.model === 'string' ? record.model : pathModel }
        : {}),
      verdict,
      ...(reason !== undefined ? { reason } : {}),
      ...(decision.ceiling ? { ceiling: decision.ceiling.tokens, ceilingSource: decision.ceiling.source } : {}),
      ...(decision.rawTokens !== undefined ? { rawTokens: decision.rawTokens } : {}),
      ...(decision.forwardedTokens !== undefined ? { forwardedTokens: decision.forwardedTokens } : {}),
      ...(decision.epochReason !== undefined ? { epochReason: decision.epochReason } : {}),
      ...(decision.cacheHot !== undefined ? { cacheHot: decision.cacheHot } : {}),
      ...(decision.messagesFolded !== undefined ? { messagesFolded: decision.messagesFolded } : {}),
      ...(decision.foldMs !== undefined ? { foldMs: decision.foldMs } : {}),
      ...(options.logBodies
        ? { requestBody: reading.text, forwardedBody: folded ? (decision.body as string) : reading.text }
        : {}),
    };
    const session = decision.session;
    const streaming = streamingPath || record.stream === true;
    return relay(
      request,
      upstream,
      folded ? (decision.body as string) : bytes,
      folded,
      verdictHeader(verdict, reason),
      api,
      streaming,
      (status, usage, aborted) => {
        track(Promise.resolve(ledger.append(ledgerLine(base, status, usage, aborted))));
        // the provider measured the view it was sent: the engine's truth at the next call
        if (session !== undefined && usage !== undefined && !shadow && status < 400)
          track(folder.measured(session, Math.max(0, usage.measuredInputTokens - decision.overheadTokens)));
      },
      {
        ...(session !== undefined ? { session } : {}),
        ...(folded && decision.epochReason !== undefined ? { epochReason: decision.epochReason } : {}),
      },
    );
  }

  /** Token counting with the session's current view in place of the history it stands for; never a new fold. */
  async function handleCountTokens(request: Request): Promise<Response> {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const reading = await readRequestBody(bytes, request.headers.get('content-encoding'), maxBodyBytes);
    const unchanged = (reason: string) =>
      relay(
        request,
        'anthropic',
        bytes,
        false,
        verdictHeader('passthrough', reason),
        undefined,
        false,
        () => undefined,
      );
    if (!reading.ok) return unchanged(reading.reason);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(reading.text) as Record<string, unknown>;
    } catch {
      return unchanged('malformed-json');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return unchanged('malformed-json');
    const sessionId = countTokensSessionId(reading.text, body, request.headers);
    if (sessionId === undefined) return unchanged('no-messages');
    let view: Awaited<ReturnType<SessionFolder['currentView']>>;
    try {
      view = await folder.currentView(sessionId, reading.text);
    } catch (error) {
      options.onError?.(error);
      return unchanged('gateway-error');
    }
    if (!view.ok) return unchanged(view.reason);
    return relay(request, 'anthropic', view.text, true, verdictHeader('folded'), undefined, false, () => undefined);
  }

  async function handle(request: Request): Promise<Response> {
    if (options.token !== undefined && request.headers.get('x-warpfold-token') !== options.token)
      return new Response(errorBody('warpfold: missing or wrong x-warpfold-token'), {
        status: 401,
        headers: {
          'content-type': 'application/json',
          'x-warpfold-verdict': verdictHeader('passthrough', 'unauthorized'),
        },
      });
    const url = new URL(request.url);
    const route = routeRequest(request.method, url, request.headers);
    switch (route.kind) {
      case 'refuse-websocket':
        return new Response(errorBody('warpfold: use HTTP for /v1/responses'), {
          status: 426,
          headers: {
            'content-type': 'application/json',
            'x-warpfold-verdict': verdictHeader('passthrough', 'websocket'),
          },
        });
      case 'sessions':
        return sessionsResponse(ledger, route.id);
      case 'session-history':
        return sessionHistoryResponse(folder, ledger, route.id);
      case 'count-tokens':
        return handleCountTokens(request);
      case 'fold':
        return handleFold(request, route.api, route.upstream, route.model, route.streaming === true);
      default: {
        const time = stamp();
        const body = request.method === 'GET' || request.method === 'HEAD' ? null : request.body;
        return relay(
          request,
          route.upstream,
          body,
          false,
          verdictHeader('passthrough', 'not-a-fold-path'),
          undefined,
          false,
          (status, _usage, aborted) =>
            track(
              Promise.resolve(
                ledger.append({
                  time,
                  api: 'forward',
                  verdict: 'passthrough',
                  reason: `${request.method} ${url.pathname}`,
                  status,
                  ...(aborted ? { aborted } : {}),
                }),
              ),
            ),
        );
      }
    }
  }

  return {
    handle,
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    get warmSessions() {
      return folder.warmSessions;
    },
  };
}
