import type { SavedFoldSession } from '../freeze/saved-format.ts';
import type { ProviderMessage } from '../messages/types.ts';
import type { FoldSession } from '../session/fold-session.ts';
import type { JsonValue, WarpfoldStorage } from '../storage/storage-types.ts';
import { isRecord } from '../text/is-record.ts';
import type { ApiKind } from './route-request.ts';

/** The record a gateway session is stored as: the engine's snapshot and what the gateway keeps beside it. */
export interface SavedGatewaySession {
  readonly format: 'warpfold-gateway-session';
  readonly version: 1;
  readonly api: ApiKind;
  /** The ceiling the engine works under: the request ceiling less system and tools. */
  readonly engineCeiling: number;
  /** The provider's measured input of the last answer, less system and tools; null before any. */
  readonly measuredInputTokens: number | null;
  readonly calls: number;
  /** `FoldSession.snapshot()`, parsed. */
  readonly fold: JsonValue;
}

/** A session held in memory. */
export interface WarmSession {
  readonly id: string;
  readonly api: ApiKind;
  fold: FoldSession;
  engineCeiling: number;
  measuredInputTokens: number | undefined;
  calls: number;
  /**
   * The raw history and the view of the last call, for token counting with the current view and
   * `GET /warpfold/sessions/:id/history`; in memory only, never stored (the history is the client's).
   */
  lastHistory: readonly ProviderMessage[] | undefined;
  lastView: readonly ProviderMessage[] | undefined;
  /** The last call's model and request ceiling, beside its history. */
  lastModel: string | undefined;
  lastCeiling: number | undefined;
  /** Calls on one session run their fold and save one after another. */
  queue: Promise<unknown>;
}

export interface SessionPoolOptions {
  readonly storage: WarpfoldStorage;
  readonly maxWarm: number;
  readonly createFold: (ceiling: number, restored?: string | SavedFoldSession) => FoldSession;
}

function readSaved(state: JsonValue): SavedGatewaySession | undefined {
  if (!isRecord(state) || state.format !== 'warpfold-gateway-session' || state.version !== 1) return undefined;
  return state as unknown as SavedGatewaySession;
}

/**
 * Sessions by id: at most `maxWarm` in memory, least recently used out first; every other one
 * reloads from storage, resuming its fold exactly (the engine's snapshot).
 */
export class SessionPool {
  private readonly warm = new Map<string, WarmSession>();
  private readonly options: SessionPoolOptions;

  constructor(options: SessionPoolOptions) {
    this.options = options;
  }

  get warmCount(): number {
    return this.warm.size;
  }

  /** The session, warm or reloaded; undefined when none is stored (or its record is unreadable). */
  async get(id: string): Promise<WarmSession | undefined> {
    const held = this.warm.get(id);
    if (held !== undefined) {
      this.warm.delete(id);
      this.warm.set(id, held);
      return held;
    }
    const stored = await this.options.storage.sessions.load(id);
    const saved = stored === undefined ? undefined : readSaved(stored.state);
    if (saved === undefined) return undefined;
    // another call may have loaded it while this one waited
    const raced = this.warm.get(id);
    if (raced !== undefined) return raced;
    let fold: FoldSession;
    try {
      fold = this.options.createFold(saved.engineCeiling, saved.fold as unknown as SavedFoldSession);
    } catch {
      // a state this release cannot restore starts over; the history is the client's, nothing is lost
      fold = this.options.createFold(saved.engineCeiling);
    }
    return this.hold({
      id,
      api: saved.api,
      fold,
      engineCeiling: saved.engineCeiling,
      measuredInputTokens: saved.measuredInputTokens ?? undefined,
      calls: saved.calls,
      lastHistory: undefined,
      lastView: undefined,
      lastModel: undefined,
      lastCeiling: undefined,
      queue: Promise.resolve(),
    });
  }

  /** The session when it is held in memory now; never reloads, and leaves the order of use as it is. */
  peek(id: string): WarmSession | undefined {
    return this.warm.get(id);
  }

  create(id: string, api: ApiKind, engineCeiling: number): WarmSession {
    return this.hold({
      id,
      api,
      fold: this.options.createFold(engineCeiling),
      engineCeiling,
      measuredInputTokens: undefined,
      calls: 0,
      lastHistory: undefined,
      lastView: undefined,
      lastModel: undefined,
      lastCeiling: undefined,
      queue: Promise.resolve(),
    });
  }

  /** The session's fold under a new ceiling, resumed from its own snapshot (it re-seals once, 'config-changed'). */
  refit(session: WarmSession, engineCeiling: number): FoldSession {
    return this.options.createFold(engineCeiling, session.fold.snapshot());
  }

  /** Writes the session's state; a call's view is saved before it is forwarded. */
  async save(session: WarmSession): Promise<void> {
    const record: SavedGatewaySession = {
      format: 'warpfold-gateway-session',
      version: 1,
      api: session.api,
      engineCeiling: session.engineCeiling,
      measuredInputTokens: session.measuredInputTokens ?? null,
      calls: session.calls,
      fold: JSON.parse(session.fold.snapshot()) as JsonValue,
    };
    await this.options.storage.sessions.save(session.id, record as unknown as JsonValue);
  }

  private hold(session: WarmSession): WarmSession {
    this.warm.set(session.id, session);
    for (const [id] of this.warm) {
      if (this.warm.size <= this.options.maxWarm) break;
      if (id !== session.id) this.warm.delete(id);
    }
    return session;
  }
}
