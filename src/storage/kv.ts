/**
 * `warpfold/storage/kv`: episodes, sessions and task rails in a Workers KV namespace.
 *
 * Layout under the optional `prefix`: `episode/<id>`, `session/<id>` and `rail/<id>` hold one record
 * each; `episode-path/<basename>/<id>` (empty values) index episodes by file basename, which is
 * how recall looks them up; their metadata holds the episode's paths and order, so recall ranks
 * candidates from one `list()` and reads only the records it returns. A record is always one value, so it is never half-written; an index
 * key may outlive its episode for a moment, and lookups re-check every record they read.
 *
 * Limits honoured: a value over 25 MiB is refused with `ValueTooLargeError` and a key over 512 bytes
 * with `KeyTooLongError`, before anything is written (a basename too long for a key is indexed under
 * its hash instead); listings follow `list()` cursors 1,000 keys at a time.
 *
 * Eventual consistency, and what it means for recall. KV serves reads from caches near the reader and
 * a write takes up to about 60 seconds to reach other locations. So, from another location (or after
 * a cached read of the same key):
 * - `findByPaths` and `list` may miss an episode recorded moments ago, or return the version before
 *   its latest supersession: recall can show a verdict that a newer episode has already made stale;
 * - a deleted episode may still be listed for a while;
 * - `sessions.load` may return an older version of a session.
 * KV has no compare-and-swap. `expectedVersion` is checked and the write made one at a time per id
 * *within this store instance* (one isolate), so concurrent saves there have exactly one winner;
 * writers in different isolates or locations can both succeed, the last write winning. Keep a
 * session that several writers share in a Durable Object (`warpfold/storage/durable-object`); KV
 * suits episodes and rails read far more often than written, and one writer per session.
 *
 * Cost: `findByPaths` makes one `list()` per 1,000 index keys of each basename, then one `get` per
 * episode it returns; `list` reads every record (one `get` each). A Worker invocation may make only so
 * many KV operations (1,000 on the paid plan at the time of writing), so listing thousands of
 * episodes in one request is better served by the Durable Object store.
 */
import type { EpisodeStore } from '../episodes/episode-store.ts';
import type { Episode } from '../episodes/types.ts';
import type { TaskRail } from '../task-rail/types.ts';
import { fnv1a } from '../text/hash.ts';
import { episodeBasenames, episodeOrderKey, episodePathsByBasename, findLimit, newestFirst, rankIndexEntries, selectByPaths, takeRankedAsync, wantedPaths, type EpisodeOrderKey, type PathIndexEntry } from './episode-lookup.ts';
import { checkKey, checkValue, fitsKey, KV_LIST_PAGE_SIZE } from './kv-limits.ts';
import { usableRecord, checkExpectedVersion, checkId, corruptionReporter, decodeEpisode, decodeRail, decodeSession, encodeEpisode, encodeRail, encodeSession, jsonText } from './record-format.ts';
import { sortIds } from './sort-ids.ts';
import { CorruptRecordError, SessionConflictError } from './storage-errors.ts';
import type { RailStore, SessionStore, StorageOptions, WarpfoldStorage } from './storage-types.ts';

export type { JsonValue, RailStore, SavedSession, SaveSessionOptions, SessionStore, StorageOptions, StoredSession, WarpfoldStorage } from './storage-types.ts';
export { CorruptRecordError, IndexedDbUnavailableError, KeyTooLongError, SessionConflictError, StorageError, StorageInputError, StorageQuotaError, UpgradeBlockedError, ValueTooLargeError, type CorruptReason, type RecordKind, type StorageErrorCode } from './storage-errors.ts';
export { STORAGE_RECORD_VERSION } from './record-format.ts';
export { KV_LIST_PAGE_SIZE, KV_MAX_KEY_BYTES, KV_MAX_VALUE_BYTES } from './kv-limits.ts';

/** The part of a `KVNamespace` binding this store uses. */
export interface KvNamespaceLike {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { metadata?: unknown }): Promise<void>;
  delete(key: string): Promise<void>;
  list(options: { prefix: string; cursor?: string | null; limit?: number }): Promise<{ keys: ReadonlyArray<{ name: string; metadata?: unknown }>; list_complete: boolean; cursor?: string }>;
}

export interface KvStoreOptions extends StorageOptions {
  /** Put before every key, so several stores can share one namespace (e.g. `app-1/`). */
  readonly prefix?: string;
}

/** KV holds at most 1,024 bytes of metadata per key; longer paths go without and their records are read. */
const KV_MAX_METADATA_BYTES = 1_024;

function indexMetadata(paths: readonly string[], order: EpisodeOrderKey): { p: readonly string[]; o: EpisodeOrderKey } | undefined {
  const metadata = { p: paths, o: order };
  return new TextEncoder().encode(JSON.stringify(metadata)).length <= KV_MAX_METADATA_BYTES ? metadata : undefined;
}

function readIndexMetadata(id: string, metadata: unknown): PathIndexEntry | undefined {
  const value = metadata as { p?: unknown; o?: unknown } | null | undefined;
  if (!value || !Array.isArray(value.p) || !value.p.every((path) => typeof path === 'string') || !Array.isArray(value.o) || value.o.length !== 5) return undefined;
  return { id, paths: value.p as string[], order: value.o as EpisodeOrderKey };
}

export function createKvStore(namespace: KvNamespaceLike, options: KvStoreOptions = {}): WarpfoldStorage {
  const prefix = options.prefix ?? '';
  const report = corruptionReporter(options);
  const episodeKey = (id: string) => checkKey(`${prefix}episode/${id}`);
  const sessionKey = (id: string) => checkKey(`${prefix}session/${checkId(id)}`);
  const railKey = (id: string) => checkKey(`${prefix}rail/${id}`);
  /** `<basename>/` scopes a lookup to one basename: a basename never holds a slash. */
  const pathPrefix = (basename: string) => {
    const plain = `${prefix}episode-path/${basename}/`;
    return fitsKey(`${plain}${'x'.repeat(64)}`) ? plain : `${prefix}episode-path-hash/${fnv1a(basename).toString(36)}/`;
  };

  /** Every key under `keyPrefix` (without it) and its metadata, page by page along the cursor. */
  const entriesUnder = async (keyPrefix: string): Promise<Array<{ name: string; metadata?: unknown }>> => {
    const entries: Array<{ name: string; metadata?: unknown }> = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await namespace.list({ prefix: keyPrefix, limit: KV_LIST_PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) });
      for (const key of page.keys) entries.push({ name: key.name.slice(keyPrefix.length), metadata: key.metadata });
      if (page.list_complete || !page.cursor) return entries;
      cursor = page.cursor;
    }
  };
  const keysUnder = async (keyPrefix: string): Promise<string[]> => (await entriesUnder(keyPrefix)).map((entry) => entry.name);
  const readEpisode = async (id: string): Promise<Episode | undefined> => {
    const key = episodeKey(id);
    const text = await namespace.get(key);
    if (text === null) return undefined;
    const decoded = decodeEpisode(key, id, text);
    return usableRecord(decoded, report);
  };
  const readAll = async (ids: Iterable<string>): Promise<Episode[]> => (await Promise.all([...ids].map(readEpisode))).filter((episode): episode is Episode => episode !== undefined);
  /** The basenames an episode is indexed under now, read from its stored record (nothing when unreadable). */
  const storedBasenames = async (id: string): Promise<string[]> => {
    const text = await namespace.get(episodeKey(id));
    if (text === null) return [];
    const decoded = decodeEpisode(episodeKey(id), id, text);
    return decoded instanceof CorruptRecordError ? [] : episodeBasenames(decoded);
  };

  /** Saves of one id run one after another within this store: KV itself has no compare-and-swap. */
  const pending = new Map<string, Promise<unknown>>();
  const oneAtATime = <T>(id: string, work: () => Promise<T>): Promise<T> => {
    const previous = pending.get(id) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    pending.set(id, settled);
    void settled.then(() => {
      if (pending.get(id) === settled) pending.delete(id);
    });
    return next;
  };

  const episodes: EpisodeStore = {
    async put(list) {
      // every record and key is checked before the first write
      const prepared = list.map((episode) => {
        const key = episodeKey(checkId(episode?.id, 'episode.id'));
        const byBasename = episodePathsByBasename(episode);
        const order = episodeOrderKey(episode);
        const index = [...byBasename].map(([basename, paths]) => ({ key: checkKey(pathPrefix(basename) + episode.id), metadata: indexMetadata(paths, order) }));
        return { id: episode.id, key, text: checkValue(key, encodeEpisode(episode)), basenames: [...byBasename.keys()], index };
      });
      // the last of several copies of one id wins, as in a sequential put; distinct ids go in parallel
      const byId = new Map(prepared.map((episode) => [episode.id, episode]));
      await Promise.all(
        [...byId.values()].map(async (episode) => {
          const before = await storedBasenames(episode.id);
          // index first, record second, stale index last: a reader between steps sees old or new, never neither
          await Promise.all(episode.index.map((entry) => namespace.put(entry.key, '', entry.metadata === undefined ? undefined : { metadata: entry.metadata })));
          await namespace.put(episode.key, episode.text);
          const stale = before.filter((basename) => !episode.basenames.includes(basename));
          await Promise.all(stale.map((basename) => namespace.delete(pathPrefix(basename) + episode.id)));
        }),
      );
    },
    async get(id) {
      return readEpisode(id);
    },
    async findByPaths(paths, findOptions) {
      const limit = findLimit(findOptions);
      const wanted = wantedPaths(paths);
      if (limit === 0 || wanted.paths.length === 0) return [];
      // index keys carry each episode's paths and order, so only the best-ranked records are read
      const entries: PathIndexEntry[] = [];
      const unranked = new Set<string>();
      for (const basename of wanted.basenames)
        for (const { name, metadata } of await entriesUnder(pathPrefix(basename))) {
          const entry = readIndexMetadata(name, metadata);
          if (entry) entries.push(entry);
          else unranked.add(name);
        }
      if (unranked.size > 0) return selectByPaths(await readAll(new Set([...unranked, ...entries.map((entry) => entry.id)])), wanted.paths, limit);
      return takeRankedAsync(rankIndexEntries(entries, wanted.paths), wanted.paths, limit, readEpisode);
    },
    async list(listOptions) {
      const all = await readAll(await keysUnder(`${prefix}episode/`));
      return newestFirst(listOptions?.sessionId === undefined ? all : all.filter((episode) => episode.sessionId === listOptions.sessionId));
    },
    async delete(id) {
      const key = episodeKey(id);
      if ((await namespace.get(key)) === null) return false;
      const basenames = await storedBasenames(id);
      await namespace.delete(key);
      await Promise.all(basenames.map((basename) => namespace.delete(pathPrefix(basename) + id)));
      return true;
    },
  };

  const readSession = async (id: string, key: string) => {
    const text = await namespace.get(key);
    if (text === null) return undefined;
    const decoded = decodeSession(key, id, text);
    return usableRecord(decoded, report);
  };

  const sessions: SessionStore = {
    async load(id) {
      const record = await readSession(id, sessionKey(id));
      return record === undefined ? undefined : { id, version: record.version, state: record.state };
    },
    async save(id, state, saveOptions) {
      const key = sessionKey(id);
      const expected = checkExpectedVersion(saveOptions?.expectedVersion);
      const stateText = jsonText(state, 'state');
      return oneAtATime(key, async () => {
        const current = (await readSession(id, key))?.version ?? 0;
        if (expected !== undefined && expected !== current) throw new SessionConflictError(id, expected, current);
        await namespace.put(key, checkValue(key, encodeSession(id, current + 1, stateText)));
        return { id, version: current + 1 };
      });
    },
    async delete(id) {
      const key = sessionKey(id);
      return oneAtATime(key, async () => {
        if ((await namespace.get(key)) === null) return false;
        await namespace.delete(key);
        return true;
      });
    },
    async list() {
      return sortIds(await keysUnder(`${prefix}session/`));
    },
  };

  const rails: RailStore = {
    async load(id): Promise<TaskRail | undefined> {
      const key = railKey(id);
      const text = await namespace.get(key);
      if (text === null) return undefined;
      const decoded = decodeRail(key, id, text);
      return usableRecord(decoded, report);
    },
    async save(rail) {
      const text = encodeRail(rail);
      const key = railKey(rail.id);
      await namespace.put(key, checkValue(key, text));
    },
    async delete(id) {
      const key = railKey(id);
      if ((await namespace.get(key)) === null) return false;
      await namespace.delete(key);
      return true;
    },
    async list() {
      return sortIds(await keysUnder(`${prefix}rail/`));
    },
  };

  return { episodes, sessions, rails };
}
