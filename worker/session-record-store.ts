import { SessionConflictError, type JsonValue, type SessionStore } from '../src/storage/index.ts';
import { ApiError } from './api-error.ts';
import { readSessionRecord, type SessionRecord } from './session-record.ts';

export interface VersionedSessionRecord {
  readonly record: SessionRecord;
  readonly version: number;
}

/** Saved session records with optimistic concurrency: a save names the version it read. */
export interface SessionRecordStore {
  load(key: string): Promise<VersionedSessionRecord | undefined>;
  /** Throws a 409 ApiError when the stored version is not `expectedVersion` (`0`: none stored yet). */
  save(key: string, record: SessionRecord, options: { readonly expectedVersion: number }): Promise<number>;
}

/** Session records through the storage backend's session store (versions and conflicts are its own). */
export function createSessionRecordStore(sessions: SessionStore): SessionRecordStore {
  return {
    async load(key) {
      const stored = await sessions.load(key);
      return stored ? { record: readSessionRecord(stored.state), version: stored.version } : undefined;
    },
    async save(key, record, { expectedVersion }) {
      try {
        return (await sessions.save(key, record as unknown as JsonValue, { expectedVersion })).version;
      } catch (error) {
        if (error instanceof SessionConflictError)
          throw new ApiError('conflict', error.message, { serverVersion: error.actualVersion });
        throw error;
      }
    },
  };
}
