/**
 * `warpfold/storage/memory`: the reference backend. Records live as JSON text in one Map, exactly as
 * the other backends hold them, so it copies on the way in and out, reports corrupt records and
 * checks versions the same way. Good for tests, Node scripts and a tab that needs no persistence.
 */
import type { EpisodeStore } from '../episodes/episode-store.ts';
import type { Episode } from '../episodes/types.ts';
import { episodeOrderKey, episodePathsByBasename, findLimit, newestFirst, rankIndexEntries, takeRanked, wantedPaths, type PathIndexEntry } from './episode-lookup.ts';
import { usableRecord, checkExpectedVersion, checkId, corruptionReporter, decodeEpisode, decodeRail, decodeSession, encodeEpisode, encodeRail, encodeSession, jsonText } from './record-format.ts';
import { sortIds } from './sort-ids.ts';
import { CorruptRecordError, SessionConflictError } from './storage-errors.ts';
import type { RailStore, SessionStore, StorageOptions, WarpfoldStorage } from './storage-types.ts';

export type { JsonValue, RailStore, SavedSession, SaveSessionOptions, SessionStore, StorageOptions, StoredSession, WarpfoldStorage } from './storage-types.ts';
export { CorruptRecordError, IndexedDbUnavailableError, KeyTooLongError, SessionConflictError, StorageError, StorageInputError, StorageQuotaError, UpgradeBlockedError, ValueTooLargeError, type CorruptReason, type RecordKind, type StorageErrorCode } from './storage-errors.ts';
export { STORAGE_RECORD_VERSION } from './record-format.ts';

export interface MemoryStoreOptions extends StorageOptions {
  /**
   * The raw records, keyed `episode/<id>`, `session/<id>` and `rail/<id>`. Pass a Map to share one
   * storage between store instances (like reopening a database) or to inspect what is stored.
   */
  readonly records?: Map<string, string>;
}

const EPISODE = 'episode/';
const SESSION = 'session/';
const RAIL = 'rail/';

export function createMemoryStore(options: MemoryStoreOptions = {}): WarpfoldStorage {
  const records = options.records ?? new Map<string, string>();
  const report = corruptionReporter(options);
  /** basename → id → paths and order; derived from the records, so a shared Map is indexed once here. */
  const byBasename = new Map<string, Map<string, PathIndexEntry>>();
  const indexedUnder = new Map<string, string[]>();

  const index = (episode: Episode) => {
    unindex(episode.id);
    const order = episodeOrderKey(episode);
    const byPath = episodePathsByBasename(episode);
    indexedUnder.set(episode.id, [...byPath.keys()]);
    for (const [basename, paths] of byPath) {
      const entries = byBasename.get(basename) ?? new Map<string, PathIndexEntry>();
      entries.set(episode.id, { id: episode.id, paths, order });
      byBasename.set(basename, entries);
    }
  };
  const unindex = (id: string) => {
    for (const basename of indexedUnder.get(id) ?? []) byBasename.get(basename)?.delete(id);
    indexedUnder.delete(id);
  };
  const readEpisode = (id: string): Episode | undefined => {
    const key = EPISODE + id;
    const text = records.get(key);
    if (text === undefined) return undefined;
    const decoded = decodeEpisode(key, id, text);
    return usableRecord(decoded, report);
  };
  for (const key of records.keys()) {
    if (!key.startsWith(EPISODE)) continue;
    const decoded = decodeEpisode(key, key.slice(EPISODE.length), records.get(key));
    if (!(decoded instanceof CorruptRecordError)) index(decoded);
  }

  const episodes: EpisodeStore = {
    async put(list) {
      const prepared = list.map((episode) => ({ episode, text: encodeEpisode(episode) }));
      for (const { episode, text } of prepared) {
        records.set(EPISODE + episode.id, text);
        index(episode);
      }
    },
    async get(id) {
      return readEpisode(id);
    },
    async findByPaths(paths, findOptions) {
      const limit = findLimit(findOptions);
      const wanted = wantedPaths(paths);
      if (limit === 0 || wanted.paths.length === 0) return [];
      const entries = wanted.basenames.flatMap((basename) => [...(byBasename.get(basename)?.values() ?? [])]);
      return takeRanked(rankIndexEntries(entries, wanted.paths), wanted.paths, limit, readEpisode);
    },
    async list(listOptions) {
      const all: Episode[] = [];
      for (const key of [...records.keys()]) {
        if (!key.startsWith(EPISODE)) continue;
        const episode = readEpisode(key.slice(EPISODE.length));
        if (episode && (listOptions?.sessionId === undefined || episode.sessionId === listOptions.sessionId)) all.push(episode);
      }
      return newestFirst(all);
    },
    async delete(id) {
      unindex(id);
      return records.delete(EPISODE + id);
    },
  };

  const sessions: SessionStore = {
    async load(id) {
      checkId(id);
      const key = SESSION + id;
      const text = records.get(key);
      if (text === undefined) return undefined;
      const decoded = decodeSession(key, id, text);
      if (decoded instanceof CorruptRecordError) {
        report(decoded);
        return undefined;
      }
      return { id, version: decoded.version, state: decoded.state };
    },
    async save(id, state, saveOptions) {
      checkId(id);
      const expected = checkExpectedVersion(saveOptions?.expectedVersion);
      const stateText = jsonText(state, 'state');
      // no await from here to the write: the check and the write are one step for every caller
      const key = SESSION + id;
      const text = records.get(key);
      let current = 0;
      if (text !== undefined) {
        const decoded = decodeSession(key, id, text);
        if (decoded instanceof CorruptRecordError) report(decoded);
        else current = decoded.version;
      }
      if (expected !== undefined && expected !== current) throw new SessionConflictError(id, expected, current);
      records.set(key, encodeSession(id, current + 1, stateText));
      return { id, version: current + 1 };
    },
    async delete(id) {
      return records.delete(SESSION + id);
    },
    async list() {
      return idsUnder(records, SESSION);
    },
  };

  const rails: RailStore = {
    async load(id) {
      const key = RAIL + id;
      const text = records.get(key);
      if (text === undefined) return undefined;
      const decoded = decodeRail(key, id, text);
      return usableRecord(decoded, report);
    },
    async save(rail) {
      records.set(RAIL + rail.id, encodeRail(rail));
    },
    async delete(id) {
      return records.delete(RAIL + id);
    },
    async list() {
      return idsUnder(records, RAIL);
    },
  };

  return { episodes, sessions, rails };
}

function idsUnder(records: Map<string, string>, prefix: string): string[] {
  const ids: string[] = [];
  for (const key of records.keys()) if (key.startsWith(prefix)) ids.push(key.slice(prefix.length));
  return sortIds(ids);
}
