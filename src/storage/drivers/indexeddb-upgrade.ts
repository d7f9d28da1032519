import type { IDBPDatabase, IDBPTransaction } from 'idb';
import { encodeSession } from '../record-format.ts';

/**
 * The IndexedDB layout, version by version:
 * - 1 (the first release): `episodes` held structured-clone episodes with a `by-basename` index over
 *   their `basenames`; `sessions` held `{ id, version, state }`. No rails.
 * - 2: `episodes`, `sessions` and `rails` held `{ id, text }` rows (the record as JSON text) with
 *   index keys beside them (`by-path`, `newest`, `by-session`).
 * - 3 (now): one object store, `records`, of text values under the keys of `createStorage`.
 * The upgrade moves every record under its key and drops the old stores within the `versionchange`
 * transaction, so it lands whole or (if anything fails) leaves the old version as it was. The
 * storage then rebuilds the path index from the records.
 */
export const INDEXEDDB_SCHEMA_VERSION = 3;

const LEGACY_STORES = [
  ['episodes', 'episode/'],
  ['sessions', 'session/'],
  ['rails', 'rail/'],
] as const;

function safeText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return String(value);
  }
}

/** The record text of a row of version 1 or 2; an unreadable one is kept as text and reported when read. */
function recordText(store: string, row: unknown, oldVersion: number): string {
  const value = row as { id: string; text?: unknown; basenames?: unknown; version?: unknown; state?: unknown };
  if (oldVersion >= 2) return typeof value.text === 'string' ? value.text : safeText(row);
  if (store === 'sessions')
    return Number.isSafeInteger(value.version) && (value.version as number) >= 1 && value.state !== undefined
      ? encodeSession(value.id, value.version as number, JSON.stringify(value.state))
      : safeText(row);
  // a version-1 episode, less its index field, is a bare episode document: record version 0
  const { basenames: _basenames, ...bare } = value;
  return safeText(bare);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the old stores are not in today's schema type
type AnyDatabase = IDBPDatabase<any>;

export function upgradeDatabase(
  database: AnyDatabase,
  oldVersion: number,
  transaction: IDBPTransaction<any, any, 'versionchange'>,
): void {
  database.createObjectStore('records');
  if (oldVersion === 0) return;
  void (async () => {
    const records = transaction.objectStore('records');
    for (const [store, prefix] of LEGACY_STORES) {
      if (!database.objectStoreNames.contains(store)) continue;
      const rows: unknown[] = await transaction.objectStore(store).getAll();
      for (const row of rows)
        void records.put(recordText(store, row, oldVersion), prefix + String((row as { id?: unknown }).id));
      database.deleteObjectStore(store);
    }
  })().catch(() => transaction.abort());
}
