import { WarpfoldError } from '../errors.ts';

/** What went wrong, for callers that switch on a code rather than a class. */
export type StorageErrorCode =
  | 'session-conflict'
  | 'corrupt-record'
  | 'invalid-input'
  | 'value-too-large'
  | 'key-too-long'
  | 'quota-exceeded'
  | 'upgrade-blocked'
  | 'indexeddb-unavailable'
  | 'storage-failed';

/** Base class of every error a store throws or reports. */
export class StorageError extends WarpfoldError {
  static override readonly errorName: string = 'StorageError';
  declare readonly code: StorageErrorCode;
  constructor(
    code: StorageErrorCode,
    message: string,
    options?: { readonly field?: string; readonly cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** A save whose `expectedVersion` is no longer the stored one. Nothing was written. */
export class SessionConflictError extends StorageError {
  static override readonly errorName: string = 'SessionConflictError';
  constructor(
    readonly sessionId: string,
    readonly expectedVersion: number,
    /** The version stored when the save was refused; 0 when none is stored. */
    readonly actualVersion: number,
  ) {
    super(
      'session-conflict',
      `session "${sessionId}" is at version ${actualVersion}, not the expected ${expectedVersion}; load it again and retry`,
    );
  }
}

export type RecordKind = 'episode' | 'session' | 'rail';

export type CorruptReason = 'invalid-json' | 'invalid-record' | 'future-version';

/** An unreadable stored record, reported through `onCorruptRecord` and skipped. */
export class CorruptRecordError extends StorageError {
  static override readonly errorName: string = 'CorruptRecordError';
  constructor(
    readonly kind: RecordKind,
    /** The backend's key of the record (e.g. `session/abc`, or the id in its object store). */
    readonly key: string,
    readonly reason: CorruptReason,
    readonly detail: string,
  ) {
    super('corrupt-record', `stored ${kind} record "${key}" is unreadable (${reason}): ${detail}`);
  }
}

/** Input the store refuses before writing anything: an empty id, a state that is not JSON, a bad option. */
export class StorageInputError extends StorageError {
  static override readonly errorName: string = 'StorageInputError';
  /** The argument at fault, e.g. `id` or `options.expectedVersion`. */
  declare readonly field: string;
  constructor(field: string, problem: string) {
    super('invalid-input', `${field}: ${problem}`, { field });
  }
}

/** A value larger than the backend holds under one key (Workers KV: 25 MiB). Nothing was written. */
export class ValueTooLargeError extends StorageError {
  static override readonly errorName: string = 'ValueTooLargeError';
  constructor(
    readonly key: string,
    readonly bytes: number,
    readonly limitBytes: number,
  ) {
    super(
      'value-too-large',
      `value for "${key}" is ${bytes} bytes, over the backend's limit of ${limitBytes} bytes per value`,
    );
  }
}

/** A key longer than the backend allows (Workers KV: 512 bytes). Nothing was written. */
export class KeyTooLongError extends StorageError {
  static override readonly errorName: string = 'KeyTooLongError';
  constructor(
    readonly key: string,
    readonly bytes: number,
    readonly limitBytes: number,
  ) {
    super(
      'key-too-long',
      `key "${key.slice(0, 80)}${key.length > 80 ? '…' : ''}" is ${bytes} bytes, over the backend's limit of ${limitBytes} bytes`,
    );
  }
}

/** The browser refused to store more (IndexedDB `QuotaExceededError`). The transaction was rolled back. */
export class StorageQuotaError extends StorageError {
  static override readonly errorName: string = 'StorageQuotaError';
  constructor(operation: string, cause: unknown) {
    super('quota-exceeded', `storage quota exhausted during ${operation}; nothing of it was written`, { cause });
  }
}

/** Another connection (usually another tab) holds the old schema version open, so the upgrade cannot run. */
export class UpgradeBlockedError extends StorageError {
  static override readonly errorName: string = 'UpgradeBlockedError';
  constructor(
    readonly databaseName: string,
    readonly fromVersion: number,
    readonly toVersion: number,
  ) {
    super(
      'upgrade-blocked',
      `IndexedDB "${databaseName}" cannot upgrade from schema ${fromVersion} to ${toVersion}: another tab or connection keeps the old version open`,
    );
  }
}

/** No IndexedDB here (Node without a polyfill, some private modes, workers without it), or it refused to open. */
export class IndexedDbUnavailableError extends StorageError {
  static override readonly errorName: string = 'IndexedDbUnavailableError';
  constructor(reason: string, cause?: unknown) {
    super('indexeddb-unavailable', `IndexedDB is unavailable: ${reason}`, { cause });
  }
}
