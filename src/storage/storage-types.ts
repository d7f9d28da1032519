import type { EpisodeStore } from '../episodes/episode-store.ts';
import type { TaskRail } from '../task-rail/types.ts';
import type { CorruptRecordError } from './storage-errors.ts';

/** Any value that survives `JSON.stringify` then `JSON.parse` unchanged. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A saved session as the store hands it back: a fresh copy of the state and the version it was saved at. */
export interface StoredSession {
  readonly id: string;
  /** 1 after the first save, one more after every save since. */
  readonly version: number;
  /** Exactly what was saved (typically `session.snapshot()`), parsed anew on every load. */
  readonly state: JsonValue;
}

export interface SaveSessionOptions {
  /**
   * Optimistic concurrency. The version the caller last loaded: the save goes through only while the
   * stored version is still this one, else it rejects with `SessionConflictError` and writes nothing.
   * `0` means "only if no session is stored under this id". Omitted: an unconditional overwrite.
   */
  readonly expectedVersion?: number;
}

export interface SavedSession {
  readonly id: string;
  /** The version now stored; pass it as `expectedVersion` to the next save. */
  readonly version: number;
}

/**
 * Session state by id. The store never looks inside the state: it keeps it as JSON text and
 * returns a fresh object on every load, so the saved format can evolve on its own.
 */
export interface SessionStore {
  load(id: string): Promise<StoredSession | undefined>;
  save(id: string, state: JsonValue, options?: SaveSessionOptions): Promise<SavedSession>;
  /** True when a session was removed. */
  delete(id: string): Promise<boolean>;
  /** Every stored session id, in ascending code-unit order. */
  list(): Promise<string[]>;
}

/** Task rails by `rail.id`, stored as `serializeTaskRail` JSON and rebuilt with `restoreTaskRail`. */
export interface RailStore {
  load(id: string): Promise<TaskRail | undefined>;
  /** Inserts or replaces the rail under its id. */
  save(rail: TaskRail): Promise<void>;
  /** True when a rail was removed. */
  delete(id: string): Promise<boolean>;
  /** Every stored rail id, in ascending code-unit order. */
  list(): Promise<string[]>;
}

/** What every backend returns: the three stores over one storage. */
export interface WarpfoldStorage {
  readonly episodes: EpisodeStore;
  readonly sessions: SessionStore;
  readonly rails: RailStore;
}

export interface StorageOptions {
  /**
   * Called once per unreadable record met (bad JSON, wrong shape, a record version from a newer
   * writer). The record is skipped: reads go on without it. Default: `console.warn`.
   */
  readonly onCorruptRecord?: (error: CorruptRecordError) => void;
}
