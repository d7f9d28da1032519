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
  delete(key: string): Promise<boolean>;
}

/** Session records in the Durable Object's own SQLite, next to the raw history. */
export function createSqlSessionRecordStore(sql: SqlStorage): SessionRecordStore {
  sql.exec('CREATE TABLE IF NOT EXISTS session_records (key TEXT PRIMARY KEY, version INTEGER NOT NULL, value TEXT NOT NULL)');
  const current = (key: string) => sql.exec<{ version: number; value: string }>('SELECT version, value FROM session_records WHERE key = ?', key).toArray()[0];
  return {
    async load(key) {
      const row = current(key);
      return row ? { record: readSessionRecord(JSON.parse(row.value)), version: row.version } : undefined;
    },
    async save(key, record, { expectedVersion }) {
      const version = current(key)?.version ?? 0;
      if (version !== expectedVersion) throw new ApiError('conflict', `session record is at version ${version}, not ${expectedVersion}`, { serverVersion: version });
      sql.exec('INSERT INTO session_records (key, version, value) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET version = excluded.version, value = excluded.value', key, version + 1, JSON.stringify(record));
      return version + 1;
    },
    async delete(key) {
      return sql.exec('DELETE FROM session_records WHERE key = ?', key).rowsWritten > 0;
    },
  };
}
