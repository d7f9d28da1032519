/**
 * `warpfold/storage`: the storage contract shared by every backend. `createStorage(driver)` turns a
 * four-operation driver into the stores for episodes, sessions and task rails; each backend's
 * subpath (`warpfold/storage/memory`, `/indexeddb`, `/durable-object`, `/kv`) holds its driver and
 * a factory over it.
 */
export type {
  JsonValue,
  RailStore,
  SavedSession,
  SaveSessionOptions,
  SessionStore,
  StorageOptions,
  StoredSession,
  WarpfoldStorage,
} from './storage-types.ts';
export {
  CorruptRecordError,
  IndexedDbUnavailableError,
  KeyTooLongError,
  SessionConflictError,
  StorageError,
  StorageInputError,
  StorageQuotaError,
  UpgradeBlockedError,
  ValueTooLargeError,
  type CorruptReason,
  type RecordKind,
  type StorageErrorCode,
} from './storage-errors.ts';
export { STORAGE_RECORD_VERSION } from './record-format.ts';
export { createStorage, STORAGE_SCHEMA_VERSION } from './create-storage.ts';
export type { DriverChange, DriverEntry, DriverWrite, StorageDriver } from './storage-driver.ts';
