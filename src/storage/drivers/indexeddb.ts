import type { IDBPDatabase, IDBPObjectStore } from 'idb';
import { StorageError, StorageQuotaError } from '../storage-errors.ts';
import { prefixUpperBound, type StorageDriver } from '../storage-driver.ts';
import { describe, isQuotaError, openDatabase } from './indexeddb-open.ts';

type Database = IDBPDatabase;
type RecordStore<Mode extends IDBTransactionMode> = IDBPObjectStore<unknown, ['records'], 'records', Mode>;

/** A request whose failure surfaces through `transaction.done`; its own promise must not go unhandled. */
const quiet = (request: Promise<unknown>) => void request.catch(() => undefined);

/**
 * Keys in one object store of the browser's IndexedDB. Nothing touches `indexedDB` until the first
 * operation, so importing and creating are safe anywhere; every operation is one transaction. When
 * another connection asks to upgrade, this one closes and reopens on its next operation.
 */
export function indexedDbDriver(name: string): StorageDriver & { close(): void } {
  let connection: Promise<Database> | undefined;
  /** One transaction over `records`; errors become typed ones. */
  const run = async <T, Mode extends 'readonly' | 'readwrite'>(
    label: string,
    mode: Mode,
    work: (store: RecordStore<Mode>) => Promise<T>,
  ): Promise<T> => {
    if (connection === undefined) {
      const opening = openDatabase(name, () => (connection = undefined));
      connection = opening;
      opening.catch(() => connection === opening && (connection = undefined));
    }
    try {
      const transaction = (await connection).transaction('records', mode);
      const done = transaction.done;
      done.catch(() => undefined);
      const result = await work(transaction.store);
      await done;
      return result;
    } catch (error) {
      if (error instanceof StorageError) throw error;
      if (isQuotaError(error)) throw new StorageQuotaError(label, error);
      throw new StorageError('storage-failed', `IndexedDB ${label} failed: ${describe(error)}`, { cause: error });
    }
  };
  /** Gets asked for in one tick share one transaction: recall reads its candidates all at once. */
  let waiting:
    | Array<{ key: string; resolve(value: string | undefined): void; reject(error: unknown): void }>
    | undefined;
  const readWaiting = () => {
    const batch = waiting ?? [];
    waiting = undefined;
    run('get', 'readonly', (store) =>
      Promise.all(batch.map(({ key }) => store.get(key) as Promise<string | undefined>)),
    ).then(
      (values) => batch.forEach((read, at) => read.resolve(values[at])),
      (error: unknown) => batch.forEach((read) => read.reject(error)),
    );
  };
  return {
    name: 'indexeddb',
    get: (key) =>
      new Promise((resolve, reject) => {
        if (waiting === undefined) queueMicrotask(readWaiting);
        (waiting ??= []).push({ key, resolve, reject });
      }),
    list: (prefix, options) =>
      run('list', 'readonly', async (store) => {
        const upper = prefixUpperBound(prefix);
        const range =
          upper === undefined ? IDBKeyRange.lowerBound(prefix) : IDBKeyRange.bound(prefix, upper, false, true);
        const [keys, values] = await Promise.all([
          store.getAllKeys(range),
          options?.values ? store.getAll(range) : undefined,
        ]);
        return keys.flatMap((key, at) =>
          typeof key === 'string' && key.startsWith(prefix)
            ? [values ? { key, value: values[at] as string } : { key }]
            : [],
        );
      }),
    async update(key, change) {
      // what the change throws is the caller's, passed on as it is, not a failure of IndexedDB
      let refusal: { error: unknown } | undefined;
      await run('update', 'readwrite', async (store) => {
        const current = (await store.get(key)) as string | undefined;
        let next: string | null | undefined;
        try {
          next = change(current);
        } catch (error) {
          refusal = { error };
          return store.transaction.abort();
        }
        if (next === null) quiet(store.delete(key));
        else if (next !== undefined) quiet(store.put(next, key));
      }).catch((error: unknown) => {
        if (refusal === undefined) throw error;
      });
      if (refusal !== undefined) throw refusal.error;
    },
    batch: (writes) =>
      run('batch', 'readwrite', async (store) => {
        for (const { key, value } of writes) quiet(value === null ? store.delete(key) : store.put(value, key));
      }),
    close() {
      const open = connection;
      connection = undefined;
      void open?.then(
        (db) => db.close(),
        () => undefined,
      );
    },
  };
}
