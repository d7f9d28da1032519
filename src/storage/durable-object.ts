/**
 * `warpfold/storage/durable-object`: episodes, sessions and task rails in a Durable Object's
 * SQLite-backed storage. Use it from inside the DO class:
 *
 *   export class Agent extends DurableObject {
 *     store = createDurableObjectStore(this.ctx.storage);
 *   }
 *
 * Every operation runs in one `transactionSync`, so it is atomic and a concurrent request of the same
 * object sees it whole or not at all; a DO runs one instance per id, so a session's optimistic check
 * and write cannot interleave with another's. Tables are named `warpfold_*` and created on first use.
 */
import type { Episode } from '../episodes/types.ts';
import type { EpisodeStore } from '../episodes/episode-store.ts';
import type { TaskRail } from '../task-rail/types.ts';
import { episodeOrderKey, episodePathsByBasename, findLimit, listedEpisodes, rankIndexEntries, takeRanked, wantedPaths, type EpisodeOrderKey, type PathIndexEntry } from './episode-lookup.ts';
import { usableRecord, checkExpectedVersion, checkId, corruptionReporter, decodeEpisode, decodeRail, decodeSession, encodeEpisode, encodeRail, encodeSession, jsonText } from './record-format.ts';
import { sortIds } from './sort-ids.ts';
import { CorruptRecordError, SessionConflictError, StorageError } from './storage-errors.ts';
import type { JsonValue, RailStore, SessionStore, StorageOptions, WarpfoldStorage } from './storage-types.ts';

export type { JsonValue, RailStore, SavedSession, SaveSessionOptions, SessionStore, StorageOptions, StoredSession, WarpfoldStorage } from './storage-types.ts';
export { CorruptRecordError, IndexedDbUnavailableError, KeyTooLongError, SessionConflictError, StorageError, StorageInputError, StorageQuotaError, UpgradeBlockedError, ValueTooLargeError, type CorruptReason, type RecordKind, type StorageErrorCode } from './storage-errors.ts';
export { STORAGE_RECORD_VERSION } from './record-format.ts';

type SqlValue = ArrayBuffer | string | number | null;

/** The part of `DurableObjectStorage` this store uses (SQLite-backed objects only). */
export interface DurableObjectSqlStorage {
  readonly sql: {
    exec(query: string, ...bindings: SqlValue[]): { toArray(): Array<Record<string, SqlValue>> };
  };
  transactionSync<T>(closure: () => T): T;
}

/**
 * Bumped when the tables change; `migrateSchema` brings older layouts forward inside one transaction,
 * so a migration either completes or leaves the old tables as they were.
 * - 1: episodes, sessions, rails, and `warpfold_episode_paths (basename, episode_id)`.
 * - 2: the path index also holds each episode's normalised `paths` and its `order_key` (both JSON),
 *   so recall filters and ranks candidates before it reads any record. Rebuilt from the records.
 */
export const DURABLE_OBJECT_SCHEMA_VERSION = 2;

const TABLES = [
  'CREATE TABLE IF NOT EXISTS warpfold_episodes (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, record TEXT NOT NULL)',
  'CREATE INDEX IF NOT EXISTS warpfold_episodes_by_session ON warpfold_episodes (session_id)',
  'CREATE TABLE IF NOT EXISTS warpfold_sessions (id TEXT PRIMARY KEY, record TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS warpfold_rails (id TEXT PRIMARY KEY, record TEXT NOT NULL)',
];

// recall looks episodes up by file basename, then matches the spellings in `paths`
const PATH_INDEX = [
  'CREATE TABLE warpfold_episode_paths (basename TEXT NOT NULL, episode_id TEXT NOT NULL, paths TEXT NOT NULL, order_key TEXT NOT NULL, PRIMARY KEY (basename, episode_id))',
  'CREATE INDEX warpfold_episode_paths_by_episode ON warpfold_episode_paths (episode_id)',
];

function indexEpisode(sql: DurableObjectSqlStorage['sql'], episode: Episode): void {
  const order = JSON.stringify(episodeOrderKey(episode));
  for (const [basename, paths] of episodePathsByBasename(episode)) sql.exec('INSERT INTO warpfold_episode_paths (basename, episode_id, paths, order_key) VALUES (?, ?, ?, ?)', basename, episode.id, JSON.stringify(paths), order);
}

function migrateSchema(storage: DurableObjectSqlStorage): void {
  storage.transactionSync(() => {
    const sql = storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS warpfold_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const row = sql.exec("SELECT value FROM warpfold_meta WHERE key = 'schema'").toArray()[0];
    const current = row === undefined ? 0 : Number(row.value);
    if (current === DURABLE_OBJECT_SCHEMA_VERSION) return;
    if (current > DURABLE_OBJECT_SCHEMA_VERSION) throw new StorageError('storage-failed', `warpfold tables are at schema ${current}, newer than this code's ${DURABLE_OBJECT_SCHEMA_VERSION}`);
    for (const statement of TABLES) sql.exec(statement);
    // schema 1's path index lacks paths and order: rebuild it from the records, which are kept as they are
    sql.exec('DROP TABLE IF EXISTS warpfold_episode_paths');
    for (const statement of PATH_INDEX) sql.exec(statement);
    if (current >= 1)
      for (const episodeRow of sql.exec('SELECT id, record FROM warpfold_episodes').toArray()) {
        const decoded = decodeEpisode(String(episodeRow.id), String(episodeRow.id), episodeRow.record);
        // an unreadable record stays where it is, unindexed, and is reported when read
        if (!(decoded instanceof CorruptRecordError)) indexEpisode(sql, decoded);
      }
    sql.exec("INSERT INTO warpfold_meta (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", String(DURABLE_OBJECT_SCHEMA_VERSION));
  });
}

export function createDurableObjectStore(storage: DurableObjectSqlStorage, options?: StorageOptions): WarpfoldStorage {
  const report = corruptionReporter(options);
  let ready = false;
  /** One transaction per operation; reports are delivered after it commits so a throwing hook cannot roll it back. */
  const run = <T>(work: (sql: DurableObjectSqlStorage['sql'], found: CorruptRecordError[]) => T): T => {
    if (!ready) {
      migrateSchema(storage);
      ready = true;
    }
    const found: CorruptRecordError[] = [];
    const result = storage.transactionSync(() => work(storage.sql, found));
    for (const error of found) report(error);
    return result;
  };
  const readEpisode = (row: Record<string, SqlValue>, found: CorruptRecordError[]): Episode | undefined => {
    const decoded = decodeEpisode(String(row.id), String(row.id), row.record);
    return usableRecord(decoded, (error) => found.push(error));
  };

  const episodes: EpisodeStore = {
    async put(list) {
      const prepared = list.map((episode) => ({ episode, text: encodeEpisode(episode) }));
      run((sql) => {
        for (const { episode, text } of prepared) {
          sql.exec('DELETE FROM warpfold_episode_paths WHERE episode_id = ?', episode.id);
          sql.exec('INSERT INTO warpfold_episodes (id, session_id, record) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, record = excluded.record', episode.id, episode.sessionId, text);
          indexEpisode(sql, episode);
        }
      });
    },
    async get(id) {
      return run((sql, found) => {
        const row = sql.exec('SELECT id, record FROM warpfold_episodes WHERE id = ?', id).toArray()[0];
        return row === undefined ? undefined : readEpisode(row, found);
      });
    },
    async findByPaths(paths, findOptions) {
      const limit = findLimit(findOptions);
      const wanted = wantedPaths(paths);
      if (limit === 0 || wanted.paths.length === 0) return [];
      return run((sql, found) => {
        const entries: PathIndexEntry[] = [];
        for (const basename of wanted.basenames)
          for (const row of sql.exec('SELECT episode_id, paths, order_key FROM warpfold_episode_paths WHERE basename = ?', basename).toArray())
            entries.push({ id: String(row.episode_id), paths: JSON.parse(String(row.paths)) as string[], order: JSON.parse(String(row.order_key)) as EpisodeOrderKey });
        return takeRanked(rankIndexEntries(entries, wanted.paths), wanted.paths, limit, (id) => {
          const row = sql.exec('SELECT id, record FROM warpfold_episodes WHERE id = ?', id).toArray()[0];
          return row === undefined ? undefined : readEpisode(row, found);
        });
      });
    },
    async list(listOptions) {
      const sessionId = listOptions?.sessionId;
      return run((sql, found) => {
        const rows = sessionId === undefined ? sql.exec('SELECT id, record FROM warpfold_episodes').toArray() : sql.exec('SELECT id, record FROM warpfold_episodes WHERE session_id = ?', sessionId).toArray();
        return listedEpisodes(rows.map((row) => readEpisode(row, found)), sessionId);
      });
    },
    async delete(id) {
      return run((sql) => {
        sql.exec('DELETE FROM warpfold_episode_paths WHERE episode_id = ?', id);
        return sql.exec('DELETE FROM warpfold_episodes WHERE id = ? RETURNING id', id).toArray().length > 0;
      });
    },
  };

  const sessions: SessionStore = {
    async load(id) {
      checkId(id);
      return run((sql, found) => {
        const row = sql.exec('SELECT record FROM warpfold_sessions WHERE id = ?', id).toArray()[0];
        if (row === undefined) return undefined;
        const decoded = decodeSession(`session/${id}`, id, row.record);
        if (decoded instanceof CorruptRecordError) {
          found.push(decoded);
          return undefined;
        }
        return { id, version: decoded.version, state: decoded.state };
      });
    },
    async save(id, state: JsonValue, saveOptions) {
      checkId(id);
      const expected = checkExpectedVersion(saveOptions?.expectedVersion);
      const stateText = jsonText(state, 'state'); // a non-JSON state is refused before storage is touched
      return run((sql, found) => {
        const row = sql.exec('SELECT record FROM warpfold_sessions WHERE id = ?', id).toArray()[0];
        let current = 0;
        if (row !== undefined) {
          const decoded = decodeSession(`session/${id}`, id, row.record);
          // an unreadable record has no version to keep: it counts as absent and is replaced
          if (decoded instanceof CorruptRecordError) found.push(decoded);
          else current = decoded.version;
        }
        if (expected !== undefined && expected !== current) throw new SessionConflictError(id, expected, current);
        const version = current + 1;
        sql.exec('INSERT INTO warpfold_sessions (id, record) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record', id, encodeSession(id, version, stateText));
        return { id, version };
      });
    },
    async delete(id) {
      return run((sql) => sql.exec('DELETE FROM warpfold_sessions WHERE id = ? RETURNING id', id).toArray().length > 0);
    },
    async list() {
      return run((sql) => sortIds(sql.exec('SELECT id FROM warpfold_sessions').toArray().map((row) => String(row.id))));
    },
  };

  const rails: RailStore = {
    async load(id) {
      return run((sql, found): TaskRail | undefined => {
        const row = sql.exec('SELECT record FROM warpfold_rails WHERE id = ?', id).toArray()[0];
        if (row === undefined) return undefined;
        const decoded = decodeRail(`rail/${id}`, id, row.record);
        return usableRecord(decoded, (error) => found.push(error));
      });
    },
    async save(rail) {
      const text = encodeRail(rail);
      run((sql) => sql.exec('INSERT INTO warpfold_rails (id, record) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record', rail.id, text).toArray());
    },
    async delete(id) {
      return run((sql) => sql.exec('DELETE FROM warpfold_rails WHERE id = ? RETURNING id', id).toArray().length > 0);
    },
    async list() {
      return run((sql) => sortIds(sql.exec('SELECT id FROM warpfold_rails').toArray().map((row) => String(row.id))));
    },
  };

  return { episodes, sessions, rails };
}

