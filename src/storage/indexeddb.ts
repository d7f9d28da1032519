/**
 * `warpfold/storage/indexeddb`: episodes, sessions and task rails in the browser's IndexedDB, with `idb`.
 *
 * - Nothing touches `indexedDB` until the first operation, so importing this module is safe anywhere
 *   (server rendering, workers without IndexedDB); that first operation rejects with
 *   `IndexedDbUnavailableError` when there is none or it refuses to open.
 * - Every driver operation is one transaction: a batch of episodes, or a session's version check and
 *   write, lands whole or not at all, and transactions of other tabs and connections never interleave.
 * - The schema is versioned (see `drivers/indexeddb-upgrade.ts`); opening an older database upgrades
 *   it in place and keeps its records. When another tab holds the old version open and does not let
 *   go, the open rejects with `UpgradeBlockedError`. This store closes its own connection when another
 *   one asks to upgrade, and reopens on its next operation.
 * - A full disk or origin quota rejects with `StorageQuotaError`; the transaction was rolled back.
 */
import { createStorage } from './create-storage.ts';
import { indexedDbDriver } from './drivers/indexeddb.ts';
import { StorageInputError } from './storage-errors.ts';
import type { StorageOptions, WarpfoldStorage } from './storage-types.ts';

export { INDEXEDDB_SCHEMA_VERSION } from './drivers/indexeddb-upgrade.ts';
export { indexedDbDriver } from './drivers/indexeddb.ts';

export interface IndexedDbStoreOptions extends StorageOptions {
  /** The database name; one database holds all three stores. */
  readonly name: string;
}

export interface IndexedDbStorage extends WarpfoldStorage {
  /** Closes the connection; the next operation opens a new one. */
  close(): void;
}

export function createIndexedDbStore(options: IndexedDbStoreOptions): IndexedDbStorage {
  if (typeof options?.name !== 'string' || options.name === '')
    throw new StorageInputError('options.name', 'must be a non-empty string (the database name)');
  const driver = indexedDbDriver(options.name);
  return { ...createStorage(driver, options), close: driver.close };
}
