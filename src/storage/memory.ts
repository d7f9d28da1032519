/**
 * `warpfold/storage/memory`: the reference backend, and the parts to build others. Records live as
 * JSON text in one Map, exactly as the other backends hold them, so it copies on the way in and
 * out, reports corrupt records and checks versions the same way: every store is `createStorage`
 * over a driver. Good for tests, Node scripts and a tab that needs no persistence.
 */
import { createStorage } from './create-storage.ts';
import { memoryDriver } from './drivers/memory.ts';
import type { StorageOptions, WarpfoldStorage } from './storage-types.ts';

export type { JsonValue, RailStore, SavedSession, SaveSessionOptions, SessionStore, StorageOptions, StoredSession, WarpfoldStorage } from './storage-types.ts';
export { CorruptRecordError, IndexedDbUnavailableError, KeyTooLongError, SessionConflictError, StorageError, StorageInputError, StorageQuotaError, UpgradeBlockedError, ValueTooLargeError, type CorruptReason, type RecordKind, type StorageErrorCode } from './storage-errors.ts';
export { STORAGE_RECORD_VERSION } from './record-format.ts';
export { createStorage, STORAGE_SCHEMA_VERSION } from './create-storage.ts';
export type { DriverChange, DriverEntry, DriverWrite, StorageDriver } from './storage-driver.ts';
export { memoryDriver } from './drivers/memory.ts';

export interface MemoryStoreOptions extends StorageOptions {
  /**
   * The raw records, keyed `episode/<id>`, `session/<id>`, `rail/<id>` and the path index keys.
   * Pass a Map to share one storage between store instances (like reopening a database) or to
   * inspect what is stored.
   */
  readonly records?: Map<string, string>;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): WarpfoldStorage {
  return createStorage(memoryDriver(options.records), options);
}
