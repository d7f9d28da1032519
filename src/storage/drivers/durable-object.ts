import { StorageError } from '../storage-errors.ts';
import { prefixUpperBound, type StorageDriver } from '../storage-driver.ts';

type SqlValue = ArrayBuffer | string | number | null;

/** The part of `DurableObjectStorage` this driver uses (SQLite-backed objects only). */
export interface DurableObjectSqlStorage {
  readonly sql: {
    exec(query: string, ...bindings: SqlValue[]): { toArray(): Array<Record<string, SqlValue>> };
  };
  transactionSync<T>(closure: () => T): T;
}

/**
 * The table layout, in `warpfold_meta` under `schema`:
 * - 1 and 2: one table per kind (`warpfold_episodes`, `warpfold_sessions`, `warpfold_rails`, keyed
 *   by id, the record in `record`) and a path index table;
 * - 3: one table `warpfold_records (key, value)` holding the keys of `createStorage`.
 * Opening an older layout moves every record under its key and drops the old tables, in one
 * transaction; the storage then rebuilds the path index from the records.
 */
export const DURABLE_OBJECT_SCHEMA_VERSION = 3;

const LEGACY_TABLES = [
  ['warpfold_episodes', 'episode/'],
  ['warpfold_sessions', 'session/'],
  ['warpfold_rails', 'rail/'],
] as const;

function migrate(storage: DurableObjectSqlStorage): void {
  storage.transactionSync(() => {
    const sql = storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS warpfold_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const row = sql.exec("SELECT value FROM warpfold_meta WHERE key = 'schema'").toArray()[0];
    const current = row === undefined ? 0 : Number(row.value);
    if (current === DURABLE_OBJECT_SCHEMA_VERSION) return;
    if (!(current < DURABLE_OBJECT_SCHEMA_VERSION))
      throw new StorageError(
        'storage-failed',
        `warpfold tables are at schema ${String(row?.value)}, newer than this code's ${DURABLE_OBJECT_SCHEMA_VERSION}`,
      );
    sql.exec('CREATE TABLE IF NOT EXISTS warpfold_records (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID');
    const tables = new Set(
      sql
        .exec("SELECT name FROM sqlite_master WHERE type = 'table'")
        .toArray()
        .map((table) => table.name),
    );
    for (const [table, prefix] of LEGACY_TABLES) {
      if (!tables.has(table)) continue;
      sql.exec(`INSERT INTO warpfold_records (key, value) SELECT ? || id, record FROM ${table}`, prefix);
      sql.exec(`DROP TABLE ${table}`);
    }
    sql.exec('DROP TABLE IF EXISTS warpfold_episode_paths');
    sql.exec(
      "INSERT INTO warpfold_meta (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      String(DURABLE_OBJECT_SCHEMA_VERSION),
    );
  });
}

/**
 * Keys in a Durable Object's SQLite storage. Every operation is one `transactionSync`, and an object
 * runs one instance per id, so an update or a batch is atomic and nothing interleaves with it.
 */
export function durableObjectDriver(storage: DurableObjectSqlStorage): StorageDriver {
  let ready = false;
  const transaction = async <T>(work: (sql: DurableObjectSqlStorage['sql']) => T): Promise<T> => {
    if (!ready) {
      migrate(storage);
      ready = true;
    }
    return storage.transactionSync(() => work(storage.sql));
  };
  const write = (sql: DurableObjectSqlStorage['sql'], key: string, value: string | null) => {
    if (value === null) sql.exec('DELETE FROM warpfold_records WHERE key = ?', key);
    else
      sql.exec(
        'INSERT INTO warpfold_records (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        key,
        value,
      );
  };
  const read = (sql: DurableObjectSqlStorage['sql'], key: string): string | undefined => {
    const row = sql.exec('SELECT value FROM warpfold_records WHERE key = ?', key).toArray()[0];
    return row === undefined ? undefined : String(row.value);
  };
  return {
    name: 'durable-object',
    get: (key) => transaction((sql) => read(sql, key)),
    list: (prefix, options) =>
      transaction((sql) => {
        const columns = options?.values ? 'key, value' : 'key';
        const upper = prefixUpperBound(prefix);
        const rows =
          upper === undefined
            ? sql.exec(`SELECT ${columns} FROM warpfold_records WHERE key >= ?`, prefix).toArray()
            : sql.exec(`SELECT ${columns} FROM warpfold_records WHERE key >= ? AND key < ?`, prefix, upper).toArray();
        return rows
          .filter((row) => String(row.key).startsWith(prefix))
          .map((row) =>
            options?.values ? { key: String(row.key), value: String(row.value) } : { key: String(row.key) },
          );
      }),
    update: (key, change) =>
      transaction((sql) => {
        const next = change(read(sql, key));
        if (next !== undefined) write(sql, key, next);
      }),
    batch: (writes) =>
      transaction((sql) => {
        for (const { key, value } of writes) write(sql, key, value);
      }),
  };
}
