import { openDB, type IDBPDatabase } from 'idb';
import { IndexedDbUnavailableError, StorageError, StorageQuotaError, UpgradeBlockedError } from '../storage-errors.ts';
import { INDEXEDDB_SCHEMA_VERSION, upgradeDatabase } from './indexeddb-upgrade.ts';

export const describe = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);
export const isQuotaError = (error: unknown) =>
  (error as { name?: unknown } | null)?.name === 'QuotaExceededError' ||
  (error as { code?: unknown } | null)?.code === 22;

/**
 * Opens (and, from an older version, upgrades) the database, every failure a typed error: no
 * IndexedDB or a refusal to open is `IndexedDbUnavailableError`, another tab holding the old version
 * `UpgradeBlockedError`, a newer version `storage-failed`. `onVersionChange` runs when this connection
 * closes because another one asks to upgrade, or the browser ends it.
 */
export function openDatabase(name: string, onVersionChange: () => void): Promise<IDBPDatabase> {
  return new Promise<IDBPDatabase>((resolve, reject) => {
    if (typeof indexedDB === 'undefined' || indexedDB === null)
      return reject(new IndexedDbUnavailableError('there is no indexedDB in this context'));
    let blocked = false;
    let opening: Promise<IDBPDatabase>;
    try {
      opening = openDB(name, INDEXEDDB_SCHEMA_VERSION, {
        upgrade: (db, oldVersion, _newVersion, transaction) => upgradeDatabase(db, oldVersion, transaction),
        blocked: (currentVersion, blockedVersion) => {
          blocked = true;
          reject(new UpgradeBlockedError(name, currentVersion, blockedVersion ?? INDEXEDDB_SCHEMA_VERSION));
        },
        blocking: () => {
          void opening.then((db) => db.close());
          onVersionChange();
        },
        terminated: onVersionChange,
      });
    } catch (error) {
      // some private modes throw from indexedDB.open itself
      return reject(new IndexedDbUnavailableError(`opening "${name}" failed (${describe(error)})`, error));
    }
    opening.then(
      // a blocked open may still succeed later, after the caller was told: close it then
      (db) => (blocked ? db.close() : resolve(db)),
      (error: unknown) => {
        if (blocked) return;
        if ((error as { name?: unknown })?.name === 'VersionError')
          reject(
            new StorageError(
              'storage-failed',
              `IndexedDB "${name}" is at a newer schema than ${INDEXEDDB_SCHEMA_VERSION}, written by a newer warpfold`,
              { cause: error },
            ),
          );
        else if (isQuotaError(error)) reject(new StorageQuotaError('opening the database', error));
        else reject(new IndexedDbUnavailableError(`opening "${name}" failed (${describe(error)})`, error));
      },
    );
  });
}
