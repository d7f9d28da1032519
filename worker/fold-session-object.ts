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

interface LoadedSession {
  readonly key: string;
  record: SessionRecord | null;
  version: number;
  /** The raw history the record covers; grows in place on append. */
  readonly messages: ProviderMessage[];
}

const recordKey = (tenant: string, sessionId: string): string => `${tenant}/${sessionId}`;

/**
 * One fold session per object, named from its tenant and id. It keeps the raw history
 * (append-only, in SQLite) and the saved FoldSession state; in memory it keeps the live
 * FoldSession, so a warm session folds incrementally and a cold one restores from storage.
 */
export class FoldSessionObject extends DurableObject<WorkerBindings> {
  private historyLog!: HistoryLog;
  private records!: SessionRecordStore;
  private loaded: LoadedSession | null = null;
  private live: { readonly fold: FoldSession; readonly optionsKey: string } | null = null;
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
    const storage = createDurableObjectStore(this.ctx.storage, { onCorruptRecord: (error) => logEvent('warn', 'corrupt-record', { error: error.message }) });
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
        return { sessionId, length: record.length, digest: record.digest, version: loaded.version, options: record.options, stats: record.stats, updatedAt: record.updatedAt };
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
        this.live = null;
        return { deleted: true as const };
      }),
    );
  }

  /** Drops what is held in memory, so the next call restores from storage (the cold path of the bench). */
  forget(): Promise<void> {
    return this.serialized(async () => {
      this.loaded = null;
      this.live = null;
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async load(key: string): Promise<LoadedSession> {
    if (this.loaded?.key === key) return this.loaded;
    const owner = this.ctx.storage.sql.exec<{ key: string }>('SELECT key FROM owner').toArray()[0]?.key;
    if (owner !== undefined && owner !== key) throw new Error('durable object addressed under a name it does not own');
    const stored = await this.records.load(key);
    const messages = stored ? this.historyLog.load(stored.record.length) : [];
    this.loaded = { key, record: stored?.record ?? null, version: stored?.version ?? 0, messages };
    this.live = null;
    return this.loaded;
  }

  private async runPrepare(call: PrepareCall): Promise<string> {
    const key = recordKey(call.tenant, call.sessionId);
    const loaded = await this.load(key);
    const heldLength = loaded.messages.length;
    const heldDigest = loaded.record?.digest ?? (await emptyHistoryDigest());
    const conflict = (message: string) => new ApiError('conflict', message, { serverDigest: heldDigest, serverLength: heldLength });
    if (call.prefixDigest !== undefined && call.prefixDigest !== heldDigest) throw conflict('prefixDigest does not match the history the server holds');
    let additions: readonly ProviderMessage[];
    let field: 'messages' | 'append';
    let offset: number;
    if (call.append) {
      additions = call.append;
      field = 'append';
      offset = heldLength;
    } else {
      const messages = call.messages ?? [];
      if (messages.length < heldLength) throw conflict(`the history has ${messages.length} messages, fewer than the ${heldLength} the server holds`);
      if (heldLength > 0 && (await historyDigest(messages.slice(0, heldLength))) !== heldDigest) throw conflict('the history differs from the one the server holds');
      additions = messages.slice(heldLength);
      field = 'messages';
      offset = 0;
    }
    const digest = await extendHistoryDigest(heldDigest, additions);
    const options = call.options ?? loaded.record?.options ?? {};
    const fold = this.foldSession(options, loaded.record);
    const history = loaded.messages;
    for (const message of additions) history.push(message);
    this.clock = call.now ?? Date.now();
    let outcome;
    try {
      outcome = fold.prepare(history, { ...(call.measuredInputTokens !== undefined ? { measuredInputTokens: call.measuredInputTokens } : {}), ...(call.hardEpoch ? { hardEpoch: true } : {}) });
    } catch (error) {
      this.rollback(heldLength);
      if (error instanceof FoldInputError) {
        const index = error.messageIndex;
        throw new ApiError('invalid-request', error.problem, { field: index < 0 ? field : `${field}[${index - offset}]` });
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
      foldState: fold.snapshot(),
      options,
      stats: outcome.stats,
      updatedAt: Date.now(),
    };
    try {
      this.historyLog.append(heldLength, additions);
      loaded.version = await this.records.save(key, record, { expectedVersion: loaded.version });
      if (heldLength === 0) this.ctx.storage.sql.exec('INSERT INTO owner (key) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM owner)', key);
    } catch (error) {
      this.rollback(heldLength);
      this.loaded = null;
      throw error;
    }
    loaded.record = record;
    return JSON.stringify({ messages: outcome.messages, cacheHot: outcome.cacheHot, sealedBoundary: outcome.sealedBoundary, stats: outcome.stats, digest, length: history.length });
  }

  /** The failed call leaves nothing behind: the history shrinks back and the live session is rebuilt from the record. */
  private rollback(heldLength: number): void {
    if (this.loaded) this.loaded.messages.length = heldLength;
    this.live = null;
  }

  private foldSession(options: SessionOptions, record: SessionRecord | null): FoldSession {
    const optionsKey = JSON.stringify(options);
    if (this.live?.optionsKey === optionsKey) return this.live.fold;
    const sessionOptions = toFoldSessionOptions(options, () => this.clock);
    const restoredState = this.live ? this.live.fold.snapshot() : record?.foldState;
    let fold: FoldSession;
    try {
      fold = new FoldSession({ ...sessionOptions, ...(restoredState !== undefined ? { restoredState } : {}) });
    } catch (error) {
      if (restoredState === undefined || !(error instanceof FoldStateError)) throw error;
      // an unreadable saved state costs one cold refold, never the session
      logEvent('warn', 'fold-state-unreadable', { error: error instanceof Error ? error.message : String(error) });
      fold = new FoldSession(sessionOptions);
    }
    this.live = { fold, optionsKey };
    return fold;
  }
}
