import { DurableObject } from 'cloudflare:workers';
import { FoldInputError, FoldSession, FoldStateError, type FoldStats, type ProviderMessage } from '../src/index.ts';
import { ApiError, settleRpc, type RpcResult } from './api-error.ts';
import { emptyHistoryDigest, extendHistoryDigest, historyDigest } from './history-digest.ts';
import { HistoryLog } from './history-log.ts';
import { logEvent } from './log-event.ts';
import { toFoldSessionOptions, type SessionOptions } from './session-options.ts';
import { SESSION_RECORD_FORMAT, SESSION_RECORD_VERSION, type SessionRecord } from './session-record.ts';
import { createDurableObjectStore } from '../src/storage/durable-object.ts';
import { createSessionRecordStore, type SessionRecordStore } from './session-record-store.ts';
import type { WorkerBindings } from './worker-bindings.ts';

export interface PrepareCall {
  readonly tenant: string;
  readonly sessionId: string;
  /** The whole history; must extend what the server holds. */
  readonly messages?: readonly ProviderMessage[];
  /** Only the messages after what the server holds. */
  readonly append?: readonly ProviderMessage[];
  readonly prefixDigest?: string;
  readonly measuredInputTokens?: number;
  readonly hardEpoch?: boolean;
  readonly options?: SessionOptions;
  /** The host's clock in ms for this call; the Durable Object's clock when absent. */
  readonly now?: number;
  /** The options a session created without any starts with (its ceiling made explicit). */
  readonly defaultOptions?: SessionOptions;
  readonly limits?: SessionLimits;
}

/** What one session may hold (MAX_SESSION_MESSAGES, MAX_SESSION_BYTES), and how long it stays warm. */
export interface SessionLimits {
  readonly maxMessages: number;
  readonly maxBytes: number;
  /** How long the live fold (and with it the raw history) stays in memory after a call; 0: not at all. */
  readonly warmMs: number;
}

export interface SessionSummary {
  readonly sessionId: string;
  readonly length: number;
  readonly digest: string;
  readonly version: number;
  readonly options: SessionOptions;
  readonly stats: FoldStats | null;
  readonly updatedAt: number;
}

/** The saved record of the session this object holds: small, kept between calls. */
interface LoadedSession {
  readonly key: string;
  record: SessionRecord | null;
  version: number;
}

/**
 * The live FoldSession and the raw history it has read. The engine keeps the messages it read
 * (to tell an edit from an append), so this is the memory of a session: kept only while the
 * session is warm, then dropped, and rebuilt from SQLite by the next call.
 */
interface LiveFold {
  readonly fold: FoldSession;
  readonly optionsKey: string;
  readonly history: ProviderMessage[];
}

const UNLIMITED: SessionLimits = {
  maxMessages: Number.POSITIVE_INFINITY,
  maxBytes: Number.POSITIVE_INFINITY,
  warmMs: 0,
};

const encoder = new TextEncoder();
/** UTF-8 length of a string without encoding it when it is ASCII. */
function utf8Length(text: string): number {
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).byteLength;
}

const recordKey = (tenant: string, sessionId: string): string => `${tenant}/${sessionId}`;

/**
 * One fold session per object, named from its tenant and id. It keeps the raw history
 * (append-only, in SQLite) and the saved FoldSession state. In memory it keeps the record, and
 * the live FoldSession with the raw history only while the session is warm (`warmMs` after its
 * last call): a warm session folds incrementally, a cold one restores from storage.
 */
export class FoldSessionObject extends DurableObject<WorkerBindings> {
  private historyLog!: HistoryLog;
  private records!: SessionRecordStore;
  private loaded: LoadedSession | null = null;
  private live: LiveFold | null = null;
  private coolTimer: ReturnType<typeof setTimeout> | null = null;
  private clock = 0;
  /** Calls run one at a time, whatever they await: the input gate covers storage only. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: WorkerBindings) {
    super(ctx, env);
    this.openTables();
  }

  /** Creates the tables when missing: at start, and again after a delete dropped them all. */
  private openTables(): void {
    const sql = this.ctx.storage.sql;
    this.historyLog = new HistoryLog(sql);
    const storage = createDurableObjectStore(this.ctx.storage, {
      onCorruptRecord: (error) => logEvent('warn', 'corrupt-record', { error: error.message }),
    });
    this.records = createSessionRecordStore(storage.sessions);
    sql.exec('CREATE TABLE IF NOT EXISTS owner (key TEXT NOT NULL)');
  }

  prepare(call: PrepareCall): Promise<RpcResult<string>> {
    return this.serialized(() => settleRpc(() => this.runPrepare(call)));
  }

  describe(tenant: string, sessionId: string): Promise<RpcResult<SessionSummary>> {
    return this.serialized(() =>
      settleRpc(async () => {
        const loaded = await this.load(recordKey(tenant, sessionId));
        const record = loaded.record;
        if (!record) throw new ApiError('not-found', `no session ${JSON.stringify(sessionId)}`);
        return {
          sessionId,
          length: record.length,
          digest: record.digest,
          version: loaded.version,
          options: record.options,
          stats: record.stats,
          updatedAt: record.updatedAt,
        };
      }),
    );
  }

  remove(tenant: string, sessionId: string): Promise<RpcResult<{ readonly deleted: true }>> {
    return this.serialized(() =>
      settleRpc(async () => {
        const loaded = await this.load(recordKey(tenant, sessionId));
        if (!loaded.record) throw new ApiError('not-found', `no session ${JSON.stringify(sessionId)}`);
        await this.ctx.storage.deleteAll();
        this.openTables();
        this.loaded = null;
        this.cool();
        return { deleted: true as const };
      }),
    );
  }

  /** Drops what is held in memory, so the next call restores from storage (the cold path of the bench). */
  forget(): Promise<void> {
    return this.serialized(async () => {
      this.loaded = null;
      this.cool();
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    // the queue must not hold on to the last call's answer
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Drops the live fold and the raw history it holds. */
  private cool(): void {
    if (this.coolTimer !== null) clearTimeout(this.coolTimer);
    this.coolTimer = null;
    this.live = null;
  }

  /** Keeps the live fold for `warmMs` more, then drops it (unless a call comes first). */
  private keepWarm(warmMs: number): void {
    if (this.coolTimer !== null) clearTimeout(this.coolTimer);
    this.coolTimer = null;
    if (warmMs <= 0) {
      this.live = null;
      return;
    }
    this.coolTimer = setTimeout(() => {
      this.coolTimer = null;
      void this.serialized(async () => {
        this.live = null;
      });
    }, warmMs);
  }

  private async load(key: string): Promise<LoadedSession> {
    if (this.loaded?.key === key) return this.loaded;
    const owner = this.ctx.storage.sql.exec<{ key: string }>('SELECT key FROM owner').toArray()[0]?.key;
    if (owner !== undefined && owner !== key) throw new Error('durable object addressed under a name it does not own');
    const stored = await this.records.load(key);
    this.loaded = { key, record: stored?.record ?? null, version: stored?.version ?? 0 };
    this.cool();
    return this.loaded;
  }

  private async runPrepare(call: PrepareCall): Promise<string> {
    const key = recordKey(call.tenant, call.sessionId);
    const loaded = await this.load(key);
    const heldLength = loaded.record?.length ?? 0;
    const heldDigest = loaded.record?.digest ?? (await emptyHistoryDigest());
    const conflict = (message: string) =>
      new ApiError('conflict', message, { serverDigest: heldDigest, serverLength: heldLength });
    if (call.prefixDigest !== undefined && call.prefixDigest !== heldDigest)
      throw conflict('prefixDigest does not match the history the server holds');
    let additions: readonly ProviderMessage[];
    let field: 'messages' | 'append';
    let offset: number;
    if (call.append) {
      additions = call.append;
      field = 'append';
      offset = heldLength;
    } else {
      const messages = call.messages ?? [];
      if (messages.length < heldLength)
        throw conflict(`the history has ${messages.length} messages, fewer than the ${heldLength} the server holds`);
      if (heldLength > 0 && (await historyDigest(messages.slice(0, heldLength))) !== heldDigest)
        throw conflict('the history differs from the one the server holds');
      additions = messages.slice(heldLength);
      field = 'messages';
      offset = 0;
    }
    const limits = call.limits ?? UNLIMITED;
    const additionJson = additions.map((message) => JSON.stringify(message));
    this.checkLimits(limits, heldLength, additions.length, additionJson);
    const digest = await extendHistoryDigest(heldDigest, additions);
    const options = call.options ?? loaded.record?.options ?? call.defaultOptions ?? {};
    // a whole history the client sent, its prefix checked against the digest, spares reading SQLite
    const live = this.liveFold(
      options,
      loaded.record,
      call.messages && heldLength > 0 ? call.messages.slice(0, heldLength) : undefined,
    );
    const history = live.history;
    for (const message of additions) history.push(message);
    this.clock = call.now ?? Date.now();
    let outcome;
    try {
      outcome = live.fold.prepare(history, {
        ...(call.measuredInputTokens !== undefined ? { measuredInputTokens: call.measuredInputTokens } : {}),
        ...(call.hardEpoch ? { hardEpoch: true } : {}),
      });
    } catch (error) {
      this.cool();
      if (error instanceof FoldInputError) {
        const index = error.messageIndex;
        throw new ApiError('invalid-request', error.problem, {
          field: index < 0 ? field : `${field}[${index - offset}]`,
        });
      }
      throw error;
    }
    const record: SessionRecord = {
      format: SESSION_RECORD_FORMAT,
      version: SESSION_RECORD_VERSION,
      tenant: call.tenant,
      sessionId: call.sessionId,
      length: history.length,
      digest,
      foldState: live.fold.snapshot(),
      options,
      stats: outcome.stats,
      updatedAt: Date.now(),
    };
    try {
      this.historyLog.appendJson(heldLength, additionJson);
      loaded.version = await this.records.save(key, record, { expectedVersion: loaded.version });
      if (heldLength === 0)
        this.ctx.storage.sql.exec('INSERT INTO owner (key) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM owner)', key);
    } catch (error) {
      this.cool();
      this.loaded = null;
      throw error;
    }
    loaded.record = record;
    this.keepWarm(limits.warmMs);
    return JSON.stringify({
      messages: outcome.messages,
      cacheHot: outcome.cacheHot,
      sealedBoundary: outcome.sealedBoundary,
      stats: outcome.stats,
      digest,
      length: history.length,
    });
  }

  /** 413 naming the limit a call would pass, before anything is read or written. */
  private checkLimits(
    limits: SessionLimits,
    heldLength: number,
    adding: number,
    additionJson: readonly string[],
  ): void {
    const length = heldLength + adding;
    if (length > limits.maxMessages) {
      throw new ApiError(
        'payload-too-large',
        `the session would hold ${length} messages, more than its limit of ${limits.maxMessages} (MAX_SESSION_MESSAGES)`,
        { limit: 'messages', maxSessionMessages: limits.maxMessages, sessionMessages: heldLength },
      );
    }
    if (limits.maxBytes === Number.POSITIVE_INFINITY) return;
    let added = 0;
    for (const json of additionJson) added += utf8Length(json);
    // counted in SQLite over what the record covers: nothing is read back into memory
    const held = heldLength === 0 ? 0 : this.historyLog.bytes(heldLength);
    if (held + added > limits.maxBytes) {
      throw new ApiError(
        'payload-too-large',
        `the session would hold ${held + added} bytes of messages, more than its limit of ${limits.maxBytes} (MAX_SESSION_BYTES)`,
        { limit: 'bytes', maxSessionBytes: limits.maxBytes, sessionBytes: held },
      );
    }
  }

  /**
   * The live fold for these options, with the raw history it has read: the warm one when the
   * options match, else one restored from the saved state (or the warm one's state) over the
   * history the call brought (`heldHistory`, already matched to the digest) or read back from SQLite.
   */
  private liveFold(options: SessionOptions, record: SessionRecord | null, heldHistory?: ProviderMessage[]): LiveFold {
    const optionsKey = JSON.stringify(options);
    if (this.live?.optionsKey === optionsKey) return this.live;
    const sessionOptions = toFoldSessionOptions(options, () => this.clock);
    const restoredState = this.live ? this.live.fold.snapshot() : record?.foldState;
    const history = this.live ? this.live.history : !record ? [] : (heldHistory ?? this.historyLog.load(record.length));
    let fold: FoldSession;
    try {
      fold = new FoldSession({ ...sessionOptions, ...(restoredState !== undefined ? { restoredState } : {}) });
    } catch (error) {
      if (restoredState === undefined || !(error instanceof FoldStateError)) throw error;
      // an unreadable saved state costs one cold refold, never the session
      logEvent('warn', 'fold-state-unreadable', { error: error instanceof Error ? error.message : String(error) });
      fold = new FoldSession(sessionOptions);
    }
    this.live = { fold, optionsKey, history };
    return this.live;
  }
}
