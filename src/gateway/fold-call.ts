import { resolveCeiling, type CeilingChoice } from '../budget/ceiling-rule.ts';
import { MINIMUM_PRESSURE_CEILING_TOKENS } from '../budget/resolve-context-budget.ts';
import { WarpfoldError } from '../errors.ts';
import type { ProviderMessage } from '../messages/types.ts';
import { openAIPromptCacheKey } from '../providers/openai/prompt-cache-key.ts';
import type { FoldOutcome } from '../session/fold-outcome.ts';
import { fnv1a } from '../text/hash.ts';
import { isRecord } from '../text/is-record.ts';
import { arrayElementSpans, topLevelSpans, type JsonSpan } from './json-spans.ts';
import { placeBreakpoints } from './place-breakpoints.ts';
import type { RequestShape } from './request-shape.ts';
import type { ApiKind } from './route-request.ts';
import type { SessionPool, WarmSession } from './session-pool.ts';
import { sessionKeyOf } from './session-key.ts';
import { writeRequest } from './write-request.ts';

/** What the gateway decided for one call, before it forwards anything. */
export interface FoldDecision {
  /** The body to forward: the client's own text unless `folded`. */
  readonly body: string;
  readonly folded: boolean;
  /** Why the request goes out as it came, when it does. */
  readonly reason?: string;
  readonly session?: WarmSession;
  readonly ceiling?: CeilingChoice;
  /** Tokens of system and tools: what the engine's ceiling leaves out. */
  readonly overheadTokens: number;
  readonly rawTokens?: number;
  readonly forwardedTokens?: number;
  readonly outcome?: FoldOutcome;
  readonly foldMs?: number;
}

export interface FoldCallInput {
  readonly api: ApiKind;
  readonly shape: RequestShape;
  readonly text: string;
  readonly body: Record<string, unknown>;
  /** Where the history sits in `text` (readHistory). */
  readonly layout: HistoryLayout;
  /** The session the call belongs to (sessionIdOf). */
  readonly sessionId: string;
  /** The headers the fold reads: the ceiling and session headers, never the provider's auth. */
  readonly headers: Headers;
  /** The model named in the path (Gemini). */
  readonly pathModel?: string;
  readonly pool: SessionPool;
  readonly configuredCeiling?: number;
  readonly configuredModel?: string;
  /** The model whose budget is the ceiling when the request's own model is unknown (the worker's DEFAULT_BUDGET_MODEL). */
  readonly fallbackModel?: { readonly model: string; readonly engine: string };
  readonly countTokens: (text: string) => number;
  readonly now: () => number;
  /** Shadow mode: the provider sees the raw request, so its usage says nothing about the view. */
  readonly shadow: boolean;
}

/** Where a request's history sits in its text: the parsed list and each element's span. */
export interface HistoryLayout {
  readonly history: readonly unknown[];
  readonly spans: ReadonlyMap<string, JsonSpan>;
  readonly historySpan: JsonSpan;
  readonly elements: readonly JsonSpan[];
}

/** The history of a request, or why the gateway cannot fold it (then it goes out as it came). */
export function readHistory(
  shape: RequestShape,
  text: string,
  body: Record<string, unknown>,
): { readonly ok: true; readonly layout: HistoryLayout } | { readonly ok: false; readonly reason: string } {
  const history = body[shape.historyField];
  if (!Array.isArray(history)) return { ok: false, reason: `${shape.historyField}-not-a-list` };
  if (history.length === 0) return { ok: false, reason: 'empty-history' };
  const spans = topLevelSpans(text);
  const historySpan = spans?.get(shape.historyField);
  const elements = historySpan === undefined ? undefined : arrayElementSpans(text, historySpan);
  if (spans === undefined || historySpan === undefined || elements?.length !== history.length)
    return { ok: false, reason: 'unreadable-layout' };
  return { ok: true, layout: { history, spans, historySpan, elements } };
}

/**
 * The session a call belongs to: its API, the key the client sent (or `prefix`), and a hash of its
 * first message, so a client's side calls (titles, routers) that share its key get sessions of their own.
 */
export function sessionIdOf(
  api: ApiKind,
  text: string,
  layout: HistoryLayout,
  headers: Headers,
  body: Record<string, unknown>,
): string {
  const key = sessionKeyOf(headers, body);
  const first = layout.elements[0];
  return `${api}:${key.key ?? 'prefix'}:${fnv1a(text.slice(first[0], first[1])).toString(36)}`;
}

/** Items the engine must never fold away: Codex's compaction summary is opaque and needed. */
function isCompactionItem(message: unknown): boolean {
  return isRecord(message) && (message.type === 'compaction' || message.type === 'compaction_summary');
}

/** One call on one session runs at a time: folds are ordered as the calls came. */
export function exclusive<T>(session: WarmSession, run: () => Promise<T>): Promise<T> {
  const result = session.queue.then(run, run);
  session.queue = result.catch(() => undefined);
  return result;
}

function passthrough(
  text: string,
  reason: string,
  overheadTokens = 0,
  extra: Partial<FoldDecision> = {},
): FoldDecision {
  return { body: text, folded: false, reason, overheadTokens, ...extra };
}

/**
 * Reads the request's history, picks its session and ceiling, folds through the session's
 * `FoldSession`, and writes the request back changing only folded messages, breakpoints and a
 * missing cache key. Saves the session before it returns, so the state is on disk before the
 * request is forwarded. Anything it cannot do safely becomes a passthrough with its reason.
 */
export async function foldCall(input: FoldCallInput): Promise<FoldDecision> {
  const { api, shape, text, body } = input;
  const { history, spans, historySpan, elements } = input.layout;
  const overheadTokens = shape.overheadFields.reduce((sum, field) => {
    const span = spans.get(field);
    return span === undefined ? sum : sum + input.countTokens(text.slice(span[0], span[1]));
  }, 0);
  let ceiling: CeilingChoice;
  try {
    ceiling = resolveCeiling({
      header: input.headers.get('x-warpfold-ceiling'),
      configured: input.configuredCeiling,
      model: input.configuredModel ?? (typeof body.model === 'string' ? body.model : input.pathModel),
      engine: shape.engine,
    });
    if (ceiling.source === 'default' && input.fallbackModel !== undefined)
      ceiling = resolveCeiling({ model: input.fallbackModel.model, engine: input.fallbackModel.engine });
  } catch (error) {
    if (!WarpfoldError.isInstance(error)) throw error;
    return passthrough(text, 'bad-ceiling-header', overheadTokens);
  }
  const engineCeiling = ceiling.tokens - overheadTokens;
  if (engineCeiling < MINIMUM_PRESSURE_CEILING_TOKENS)
    return passthrough(text, 'system-and-tools-exceed-ceiling', overheadTokens, { ceiling });

  const id = input.sessionId;
  let session = await input.pool.get(id);
  const rawSpans = new Map<ProviderMessage, JsonSpan>();
  history.forEach((message, index) => {
    if (isRecord(message)) rawSpans.set(message as ProviderMessage, elements[index]);
  });
  if (session === undefined) {
    let rawTokens = overheadTokens;
    for (const [start, end] of elements) rawTokens += input.countTokens(text.slice(start, end));
    if (rawTokens <= ceiling.tokens)
      return passthrough(text, 'under-ceiling', overheadTokens, { ceiling, rawTokens, forwardedTokens: rawTokens });
    session = input.pool.create(id, api, engineCeiling);
  }
  const held = session;
  return exclusive(held, async () => {
    // system or tools grew past what the engine was given, or shrank well below: re-seal under the new room
    if (engineCeiling < held.engineCeiling || engineCeiling > held.engineCeiling * 1.1) {
      held.fold = input.pool.refit(held, engineCeiling);
      held.engineCeiling = engineCeiling;
    }
    const measured = input.shadow ? undefined : held.measuredInputTokens;
    held.measuredInputTokens = undefined;
    const started = input.now();
    let outcome: FoldOutcome;
    try {
      outcome = held.fold.prepare(
        history as ProviderMessage[],
        measured === undefined ? undefined : { measuredInputTokens: measured },
      );
    } catch (error) {
      const code = WarpfoldError.isInstance(error) ? error.code : 'error';
      return passthrough(text, `fold-failed-${code}`, overheadTokens, { ceiling, session: held });
    }
    const foldMs = input.now() - started;
    held.calls++;
    held.lastHistory = history as ProviderMessage[];
    held.lastView = outcome.messages;
    held.lastModel = typeof body.model === 'string' ? body.model : input.pathModel;
    held.lastCeiling = ceiling.tokens;
    const measures = {
      ceiling,
      session: held,
      outcome,
      foldMs,
      rawTokens: overheadTokens + outcome.stats.rawTokens,
      forwardedTokens: overheadTokens + outcome.stats.viewTokens,
    };
    const range = outcome.foldedRange;
    let decision: FoldDecision;
    if (range !== null && history.slice(range[0], range[1]).some(isCompactionItem))
      decision = passthrough(text, 'compaction-item-in-fold', overheadTokens, measures);
    else if (range === null && outcome.stats.clippedMessages === 0)
      decision = passthrough(text, 'fits', overheadTokens, { ...measures, forwardedTokens: measures.rawTokens });
    else {
      const plan =
        api === 'anthropic'
          ? placeBreakpoints(outcome.messages, outcome.sealedBoundary, body.system, body.tools)
          : { replaced: new Map<number, ProviderMessage>(), total: 0 };
      const added =
        shape.promptCacheKey && body.prompt_cache_key === undefined
          ? { prompt_cache_key: openAIPromptCacheKey(['warpfold', id]) }
          : undefined;
      decision = {
        body: writeRequest({
          text,
          historySpan,
          rawSpans,
          view: outcome.messages,
          sealedBoundary: outcome.sealedBoundary,
          replaced: plan.replaced,
          added,
        }),
        folded: true,
        overheadTokens,
        ...measures,
      };
    }
    await input.pool.save(held);
    return decision;
  });
}
