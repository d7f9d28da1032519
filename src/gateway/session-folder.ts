import type { CeilingChoice } from '../budget/ceiling-rule.ts';
import type { SavedFoldSession } from '../freeze/saved-format.ts';
import type { ProviderMessage } from '../messages/types.ts';
import { FoldSession } from '../session/fold-session.ts';
import { createMemoryStore } from '../storage/memory.ts';
import type { WarpfoldStorage } from '../storage/storage-types.ts';
import { exclusive, foldCall, readHistory, sessionIdOf, type FoldDecision } from './fold-call.ts';
import { requestShape } from './request-shape.ts';
import type { ApiKind } from './route-request.ts';
import { SessionPool } from './session-pool.ts';
import { writeRequest } from './write-request.ts';

/**
 * The request headers a fold reads: the ceiling and the session headers. Only these reach a
 * folder, so a folder that runs elsewhere (a Durable Object) never sees the provider's key.
 */
export const FOLD_HEADERS = [
  'x-warpfold-ceiling',
  'x-warpfold-session',
  'x-claude-code-session-id',
  'session-id',
  'session_id',
] as const;

/** The fold headers of a request, as a plain record. */
export function foldHeaders(headers: Headers): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of FOLD_HEADERS) {
    const value = headers.get(name);
    if (value !== null) picked[name] = value;
  }
  return picked;
}

/** One call for a folder: plain data, so it may cross into another isolate. */
export interface FolderCall {
  readonly api: ApiKind;
  /** The session the call belongs to (`api:key:first-message hash`). */
  readonly sessionId: string;
  /** The request body, decoded. */
  readonly text: string;
  /** The parsed `text`, when the folder runs in the caller's own isolate (saves a second parse). */
  readonly body?: Record<string, unknown>;
  /** `foldHeaders(request.headers)`: never the provider's auth. */
  readonly headers: Readonly<Record<string, string>>;
  /** The model named in the path (Gemini). */
  readonly pathModel?: string;
  readonly shadow: boolean;
}

/** What a folder decided for one call: plain data. */
export interface FolderDecision {
  readonly folded: boolean;
  /** The body to forward, when `folded`; otherwise the request goes out as it came. */
  readonly body?: string;
  readonly reason?: string;
  /** The session the call was folded in; absent for calls that started none. */
  readonly session?: string;
  readonly ceiling?: CeilingChoice;
  /** Tokens of system and tools: what the engine's ceiling leaves out. */
  readonly overheadTokens: number;
  readonly rawTokens?: number;
  readonly forwardedTokens?: number;
  readonly epochReason?: string;
  readonly cacheHot?: boolean;
  readonly messagesFolded?: number;
  readonly foldMs?: number;
}

/** count_tokens: the request with the session's current view, or why it goes out as it came. */
export type CurrentView =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: string };

/** A warm session's last raw history, as the engine read it: plain data, so it may cross into another isolate. */
export type SessionHistory =
  | {
      readonly ok: true;
      readonly api: ApiKind;
      /** The last call's ceiling (system, tools and messages), as the ledger says it. */
      readonly ceiling: number | null;
      /** What the engine folds the messages under: the ceiling less system and tools. */
      readonly engineCeiling: number;
      readonly model: string | null;
      readonly calls: number;
      readonly messages: readonly ProviderMessage[];
    }
  /** Raw history is held in memory only: a session that is not warm has none to give. */
  | { readonly ok: false; readonly reason: 'not-warm' };

/**
 * Where sessions live and calls fold. The gateway keeps one in its own isolate by default; a host
 * may fold elsewhere (the worker: one Durable Object per session) while it forwards itself.
 */
export interface SessionFolder {
  fold(request: FolderCall): Promise<FolderDecision>;
  /** The provider's measured input for the view the session's last call sent, less system and tools. */
  measured(sessionId: string, inputTokens: number): Promise<void>;
  /** The count_tokens body `text` with the session's current view in place of the history it stands for. */
  currentView(sessionId: string, text: string): Promise<CurrentView>;
  /** The session's last raw history while it is held in memory; never reloads it. */
  history(sessionId: string): Promise<SessionHistory>;
  /** Sessions held in memory now. */
  readonly warmSessions: number;
}

export interface SessionFolderOptions {
  /** Where sessions persist (any `warpfold/storage` backend). */
  readonly storage: WarpfoldStorage;
  readonly countTokens: (text: string) => number;
  /** Milliseconds; only fold timing reads it. */
  readonly now: () => number;
  readonly maxWarmSessions: number;
  /** The ceiling for every call without an `x-warpfold-ceiling` header. */
  readonly ceiling?: number;
  /** The model whose budget is the ceiling, instead of each request's model. */
  readonly model?: string;
  /** The model whose budget is the ceiling when the request's own model is unknown. */
  readonly fallbackModel?: { readonly model: string; readonly engine: string };
  /**
   * What one session may hold: messages, and UTF-8 bytes of the request. A call past either is
   * folded on its own, as a fresh session that is never kept, and forwarded with the reason
   * (`session-limit-messages`, `session-limit-bytes`): the client's work is never refused.
   */
  readonly maxSessionMessages?: number;
  readonly maxSessionBytes?: number;
}

const encoder = new TextEncoder();

/** Which session limit the call passes, if any. */
function sessionLimitPassed(options: SessionFolderOptions, messages: number, text: string): string | undefined {
  if (options.maxSessionMessages !== undefined && messages > options.maxSessionMessages)
    return 'session-limit-messages';
  const maxBytes = options.maxSessionBytes;
  // UTF-8 takes 1–3 bytes per UTF-16 unit: encode only when the length alone cannot tell
  if (
    maxBytes !== undefined &&
    (text.length > maxBytes || (text.length * 3 > maxBytes && encoder.encode(text).byteLength > maxBytes))
  )
    return 'session-limit-bytes';
  return undefined;
}

function resultOf(decision: FoldDecision): FolderDecision {
  const stats = decision.outcome?.stats;
  return {
    folded: decision.folded,
    ...(decision.folded ? { body: decision.body } : {}),
    ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    ...(decision.session !== undefined ? { session: decision.session.id } : {}),
    ...(decision.ceiling !== undefined ? { ceiling: decision.ceiling } : {}),
    overheadTokens: decision.overheadTokens,
    ...(decision.rawTokens !== undefined ? { rawTokens: decision.rawTokens } : {}),
    ...(decision.forwardedTokens !== undefined ? { forwardedTokens: decision.forwardedTokens } : {}),
    ...(stats?.epochReason !== undefined ? { epochReason: stats.epochReason } : {}),
    ...(stats !== undefined ? { cacheHot: stats.cacheHot, messagesFolded: stats.messagesFolded } : {}),
    ...(decision.foldMs !== undefined ? { foldMs: decision.foldMs } : {}),
  };
}

/** A folder over a `warpfold/storage` backend in this isolate: the sessions' `FoldSession`s, warm or reloaded. */
export function createSessionFolder(options: SessionFolderOptions): SessionFolder {
  const poolOver = (storage: WarpfoldStorage, maxWarm: number) =>
    new SessionPool({
      storage,
      maxWarm,
      createFold: (ceiling: number, restored?: string | SavedFoldSession) =>
        new FoldSession({
          pressureCeiling: ceiling,
          countTokens: options.countTokens,
          now: options.now,
          restoredState: restored,
          keepReceipts: false,
        }),
    });
  const pool = poolOver(options.storage, options.maxWarmSessions);
  return {
    async fold(request) {
      const shape = requestShape(request.api);
      let body = request.body;
      if (body === undefined) {
        const parsed: unknown = JSON.parse(request.text);
        body = parsed as Record<string, unknown>;
      }
      const reading = readHistory(shape, request.text, body);
      if (!reading.ok) return { folded: false, reason: reading.reason, overheadTokens: 0 };
      const limit = sessionLimitPassed(options, reading.layout.history.length, request.text);
      const decision = await foldCall({
        api: request.api,
        shape,
        text: request.text,
        body,
        layout: reading.layout,
        sessionId: request.sessionId,
        headers: new Headers(request.headers),
        pathModel: request.pathModel,
        // past a limit: a session of its own, in memory, dropped after this call
        pool: limit === undefined ? pool : poolOver(createMemoryStore(), 1),
        configuredCeiling: options.ceiling,
        configuredModel: options.model,
        fallbackModel: options.fallbackModel,
        countTokens: options.countTokens,
        now: options.now,
        shadow: request.shadow,
      });
      if (limit === undefined) return resultOf(decision);
      const { session: _dropped, ...stateless } = resultOf(decision);
      return { ...stateless, reason: stateless.folded ? limit : `${limit}-${stateless.reason ?? 'passthrough'}` };
    },
    async measured(sessionId, inputTokens) {
      const session = await pool.get(sessionId);
      if (session === undefined) return;
      session.measuredInputTokens = inputTokens;
      await exclusive(session, () => pool.save(session));
    },
    async currentView(sessionId, text) {
      const body = JSON.parse(text) as Record<string, unknown>;
      const reading = readHistory(requestShape('anthropic'), text, body);
      if (!reading.ok) return { ok: false, reason: 'no-messages' };
      const { history, historySpan, elements } = reading.layout;
      const session = await pool.get(sessionId);
      const last = session?.lastHistory;
      const view = session?.lastView;
      if (last === undefined || view === undefined || last.length > history.length)
        return { ok: false, reason: 'no-current-view' };
      for (let index = 0; index < last.length; index++)
        if (JSON.stringify(last[index]) !== JSON.stringify(history[index]))
          return { ok: false, reason: 'history-changed' };
      const combined = [...view, ...(history.slice(last.length) as ProviderMessage[])];
      const rawSpans = new Map<ProviderMessage, readonly [number, number]>();
      history.forEach((message, index) => rawSpans.set(message as ProviderMessage, elements[index]));
      return {
        ok: true,
        text: writeRequest({ text, historySpan, rawSpans, view: combined, sealedBoundary: null, replaced: new Map() }),
      };
    },
    async history(sessionId) {
      const session = pool.peek(sessionId);
      if (session?.lastHistory === undefined) return { ok: false, reason: 'not-warm' };
      return {
        ok: true,
        api: session.api,
        ceiling: session.lastCeiling ?? null,
        engineCeiling: session.engineCeiling,
        model: session.lastModel ?? null,
        calls: session.calls,
        messages: session.lastHistory,
      };
    },
    get warmSessions() {
      return pool.warmCount;
    },
  };
}

/** The session id of a count_tokens body (as its Messages calls are keyed), or undefined when it has no history. */
export function countTokensSessionId(
  text: string,
  body: Record<string, unknown>,
  headers: Headers,
): string | undefined {
  const reading = readHistory(requestShape('anthropic'), text, body);
  return reading.ok ? sessionIdOf('anthropic', text, reading.layout, headers, body) : undefined;
}
