/**
 * `warpfold/storage/indexeddb`: episodes, sessions and task rails in the browser's IndexedDB, with `idb`.
 *
 * - Nothing touches `indexedDB` until the first operation, so importing this module is safe anywhere
 *   (server rendering, workers without IndexedDB); that first operation rejects with
 *   `IndexedDbUnavailableError` when there is none or it refuses to open.
 * - Every operation is one transaction: a batch of episodes, or a session's version check and write,
 *   lands whole or not at all, and transactions of other tabs and connections never interleave with it.
 * - The schema is versioned (see `indexeddb-schema.ts`); opening an older database upgrades it in place
 *   and keeps its records. When another tab holds the old version open and does not let go, the open
 *   rejects with `UpgradeBlockedError`. This store closes its own connection when another one asks to
 *   upgrade, and reopens on its next operation.
 * - A full disk or origin quota rejects with `StorageQuotaError`; the transaction was rolled back.
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { EpisodeStore } from '../episodes/episode-store.ts';
import type { Episode } from '../episodes/types.ts';
import type { TaskRail } from '../task-rail/types.ts';
import { findLimit, listedEpisodes, newestFirst, touchesAny, wantedPaths } from './episode-lookup.ts';
import { episodeRow, INDEXEDDB_SCHEMA_VERSION, pathSuffixes, sessionRange, spellingRange, upgradeSchema, type WarpfoldDatabase } from './indexeddb-schema.ts';
import { usableRecord, checkExpectedVersion, checkId, corruptionReporter, decodeEpisode, decodeRail, decodeSession, encodeEpisode, encodeRail, encodeSession, jsonText } from './record-format.ts';
import { sortIds } from './sort-ids.ts';
import { CorruptRecordError, IndexedDbUnavailableError, SessionConflictError, StorageError, StorageQuotaError, UpgradeBlockedError } from './storage-errors.ts';
import type { RailStore, SessionStore, StorageOptions, WarpfoldStorage } from './storage-types.ts';

export type { JsonValue, RailStore, SavedSession, SaveSessionOptions, SessionStore, StorageOptions, StoredSession, WarpfoldStorage } from './storage-types.ts';
export { CorruptRecordError, IndexedDbUnavailableError, KeyTooLongError, SessionConflictError, StorageError, StorageInputError, StorageQuotaError, UpgradeBlockedError, ValueTooLargeError, type CorruptReason, type RecordKind, type StorageErrorCode } from './storage-errors.ts';
export { STORAGE_RECORD_VERSION } from './record-format.ts';
export { INDEXEDDB_SCHEMA_VERSION, type WarpfoldDatabase } from './indexeddb-schema.ts';

export interface IndexedDbStoreOptions extends StorageOptions {
  /** The database name; one database holds all three stores. */
  readonly name: string;
}

export interface IndexedDbStorage extends WarpfoldStorage {
  /** Closes the connection; the next operation opens a new one. */
  close(): void;
}

type Database = IDBPDatabase<WarpfoldDatabase>;

/** A request whose failure surfaces through `transaction.done`; its own promise must not go unhandled. */
function quiet(request: Promise<unknown>): void {
  request.catch(() => undefined);
}

function isQuotaError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && ((error as { name?: unknown }).name === 'QuotaExceededError' || (error as { code?: unknown }).code === 22);
}

export function createIndexedDbStore(options: IndexedDbStoreOptions): IndexedDbStorage {
  const name = options.name;
  if (typeof name !== 'string' || name === '') throw new TypeError('createIndexedDbStore needs a non-empty database name');
  const report = corruptionReporter(options);
  let connection: Promise<Database> | undefined;

  const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

  const open = (): Promise<Database> =>
    new Promise<Database>((resolve, reject) => {
      if (typeof indexedDB === 'undefined' || indexedDB === null) {
        reject(new IndexedDbUnavailableError('there is no indexedDB in this context'));
        return;
      }
      let blocked = false;
      let opening: Promise<Database>;
      try {
        opening = openDB<WarpfoldDatabase>(name, INDEXEDDB_SCHEMA_VERSION, {
          upgrade: (db, oldVersion, _newVersion, transaction) => upgradeSchema(db, oldVersion, transaction),
          blocked: (currentVersion, blockedVersion) => {
            blocked = true;
            reject(new UpgradeBlockedError(name, currentVersion, blockedVersion ?? INDEXEDDB_SCHEMA_VERSION));
          },
          blocking: () => {
            // another connection wants a newer version: let it, and reopen on the next operation
            void opening.then((db) => db.close());
            connection = undefined;
          },
          terminated: () => {
            connection = undefined;
          },
        });
      } catch (error) {
        // some private modes throw from indexedDB.open itself
        reject(new IndexedDbUnavailableError(`opening "${name}" failed (${describe(error)})`, error));
        return;
      }
      opening.then(
        (db) => {
          // a blocked open may still succeed later, after the caller was told: close it then
          if (blocked) db.close();
          else resolve(db);
        },
        (error: unknown) => {
          if (blocked) return;
          if (error instanceof DOMException && error.name === 'VersionError') reject(new StorageError('storage-failed', `IndexedDB "${name}" is at a newer schema than ${INDEXEDDB_SCHEMA_VERSION}, written by a newer warpfold`, { cause: error }));
          else if (isQuotaError(error)) reject(new StorageQuotaError('opening the database', error));
          else reject(new IndexedDbUnavailableError(`opening "${name}" failed (${describe(error)})`, error));
        },
      );
    });

  const database = (): Promise<Database> => {
    if (connection === undefined) {
      const opening = open();
      connection = opening;
      opening.catch(() => {
        if (connection === opening) connection = undefined;
      });
    }
    return connection;
  };

  /** One operation: its errors become typed ones, and corruption reports go out after it settled. */
  const operation = async <T>(label: string, work: (database: Database, found: CorruptRecordError[]) => Promise<T>): Promise<T> => {
    const found: CorruptRecordError[] = [];
    try {
      return await work(await database(), found);
    } catch (error) {
      if (error instanceof StorageError) throw error;
      if (isQuotaError(error)) throw new StorageQuotaError(label, error);
      throw new StorageError('storage-failed', `IndexedDB ${label} failed: ${describe(error)}`, { cause: error });
    } finally {
      for (const error of found) report(error);
    }
  };

  const readEpisode = (row: { id: string; text: unknown } | undefined, found: CorruptRecordError[]): Episode | undefined => {
    if (row === undefined) return undefined;
    const decoded = decodeEpisode(`episodes/${row.id}`, row.id, row.text);
    return usableRecord(decoded, (error) => found.push(error));
  };

  const episodes: EpisodeStore = {
    async put(list) {
      const rows = list.map((episode) => episodeRow(episode, encodeEpisode(episode)));
      await operation('episodes.put', async (db) => {
        const transaction = db.transaction('episodes', 'readwrite');
        for (const row of rows) quiet(transaction.store.put(row));
        await transaction.done;
      });
    },
    async get(id) {
      return operation('episodes.get', async (db, found) => readEpisode(await db.get('episodes', id), found));
    },
    async findByPaths(paths, findOptions) {
      const limit = findLimit(findOptions);
      const wanted = wantedPaths(paths);
      if (limit === 0 || wanted.paths.length === 0) return [];
      return operation('episodes.findByPaths', async (db, found) => {
        const index = db.transaction('episodes').store.index('by-path');
        const lookups = new Map<string, [string, 0 | 1]>();
        const ask = (spelling: string, kind: 0 | 1) => lookups.set(`${kind}${spelling}`, [spelling, kind]);
        for (const path of wanted.paths) {
          ask(path, 0); // the same path
          if (!path.startsWith('/')) ask(path, 1); // a longer path ending in it (an absolute one only matches itself)
          for (const suffix of pathSuffixes(path)) ask(suffix, 0); // a shorter stored path it ends in
        }
        // every range holds only matches, newest first: `limit` from each covers the union's newest `limit`
        const pages = await Promise.all([...lookups.values()].map(([spelling, kind]) => index.getAll(spellingRange(spelling, kind), limit === Infinity ? undefined : limit)));
        const byId = new Map<string, Episode>();
        for (const row of pages.flat()) {
          if (byId.has(row.id)) continue;
          const episode = readEpisode(row, found);
          if (episode && touchesAny(episode, wanted.paths)) byId.set(episode.id, episode);
        }
        const sorted = newestFirst([...byId.values()]);
        return limit === Infinity ? sorted : sorted.slice(0, limit);
      });
    },
    async list(listOptions) {
      const sessionId = listOptions?.sessionId;
      return operation('episodes.list', async (db, found) => {
        const rows = sessionId === undefined ? await db.getAllFromIndex('episodes', 'newest') : await db.getAllFromIndex('episodes', 'by-session', sessionRange(sessionId));
        return listedEpisodes(rows.map((row) => readEpisode(row, found)), sessionId);
      });
    },
    async delete(id) {
      return operation('episodes.delete', async (db) => {
        const transaction = db.transaction('episodes', 'readwrite');
        const existed = (await transaction.store.getKey(id)) !== undefined;
        if (existed) quiet(transaction.store.delete(id));
        await transaction.done;
        return existed;
      });
    },
  };

  const sessions: SessionStore = {
    async load(id) {
      checkId(id);
      return operation('sessions.load', async (db, found) => {
        const row = await db.get('sessions', id);
        if (row === undefined) return undefined;
        const decoded = decodeSession(`sessions/${id}`, id, row.text);
        if (decoded instanceof CorruptRecordError) {
          found.push(decoded);
          return undefined;
        }
        return { id, version: decoded.version, state: decoded.state };
      });
    },
    async save(id, state, saveOptions) {
      checkId(id);
      const expected = checkExpectedVersion(saveOptions?.expectedVersion);
      const stateText = jsonText(state, 'state');
      return operation('sessions.save', async (db, found) => {
        // the read and the write share one readwrite transaction: no other save can come between them
        const transaction = db.transaction('sessions', 'readwrite');
        const done = transaction.done;
        done.catch(() => undefined);
        const row = await transaction.store.get(id);
        let current = 0;
        if (row !== undefined) {
          const decoded = decodeSession(`sessions/${id}`, id, row.text);
          if (decoded instanceof CorruptRecordError) found.push(decoded);
          else current = decoded.version;
        }
        if (expected !== undefined && expected !== current) {
          transaction.abort();
          throw new SessionConflictError(id, expected, current);
        }
        quiet(transaction.store.put({ id, text: encodeSession(id, current + 1, stateText) }));
        await done;
        return { id, version: current + 1 };
      });
    },
    async delete(id) {
      return operation('sessions.delete', async (db) => {
        const transaction = db.transaction('sessions', 'readwrite');
        const existed = (await transaction.store.getKey(id)) !== undefined;
        if (existed) quiet(transaction.store.delete(id));
        await transaction.done;
        return existed;
      });
    },
    async list() {
      return operation('sessions.list', async (db) => sortIds(await db.getAllKeys('sessions')));
    },
  };

  const rails: RailStore = {
    async load(id) {
      return operation('rails.load', async (db, found): Promise<TaskRail | undefined> => {
        const row = await db.get('rails', id);
        if (row === undefined) return undefined;
        const decoded = decodeRail(`rails/${id}`, id, row.text);
        return usableRecord(decoded, (error) => found.push(error));
      });
    },
    async save(rail) {
      const text = encodeRail(rail);
      await operation('rails.save', async (db) => {
        await db.put('rails', { id: rail.id, text });
      });
    },
    async delete(id) {
      return operation('rails.delete', async (db) => {
        const transaction = db.transaction('rails', 'readwrite');
        const existed = (await transaction.store.getKey(id)) !== undefined;
        if (existed) quiet(transaction.store.delete(id));
        await transaction.done;
        return existed;
      });
    },
    async list() {
      return operation('rails.list', async (db) => sortIds(await db.getAllKeys('rails')));
    },
  };

  return {
    episodes,
    sessions,
    rails,
    close() {
      const open = connection;
      connection = undefined;
      void open?.then((db) => db.close(), () => undefined);
    },
  };
}
