import type { EpisodeStore } from '../episodes/episode-store.ts';
import type { Episode } from '../episodes/types.ts';
import type { TaskRail } from '../task-rail/types.ts';
import {
  findLimit,
  newestFirst,
  rankIndexEntries,
  selectByPaths,
  takeRanked,
  wantedPaths,
  type PathIndexEntry,
} from './episode-lookup.ts';
import { basenamePrefix, indexWrites, readIndexEntry } from './path-index.ts';
import {
  checkExpectedVersion,
  checkId,
  corruptionReporter,
  decodeEpisode,
  decodeRail,
  decodeSession,
  encodeEpisode,
  encodeRail,
  encodeSession,
  jsonText,
  usableRecord,
} from './record-format.ts';
import { sortIds } from './sort-ids.ts';
import type { DriverWrite, StorageDriver } from './storage-driver.ts';
import { CorruptRecordError, SessionConflictError, StorageError } from './storage-errors.ts';
import type { RailStore, SessionStore, StorageOptions, WarpfoldStorage } from './storage-types.ts';

/**
 * The layout every driver holds, version by version (docs/storage.md has the history): version 3
 * keeps each record as JSON text under `episode/<id>`, `session/<id>` or `rail/<id>`, the path index
 * under `episode-path/` (see `path-index.ts`), and this number under `meta/schema`. Data of an earlier
 * layout reaches a driver as records under those keys (the IndexedDB and Durable Object drivers move
 * them on open); the first operation then builds the path index from the records.
 */
export const STORAGE_SCHEMA_VERSION = 3;

const SCHEMA_KEY = 'meta/schema';
const EPISODE = 'episode/';
const SESSION = 'session/';
const RAIL = 'rail/';

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The three stores over one driver: one implementation, so every backend behaves alike. */
export function createStorage(driver: StorageDriver, options?: StorageOptions): WarpfoldStorage {
  const report = corruptionReporter(options);
  let ready: Promise<void> | undefined;

  /** Brings an older layout up to this one, adding index keys only, so it is safe to run twice at once. */
  const upgrade = async (): Promise<void> => {
    const stored = await driver.get(SCHEMA_KEY);
    const version = stored === undefined ? 0 : Number(stored);
    if (version === STORAGE_SCHEMA_VERSION) return;
    if (!(version < STORAGE_SCHEMA_VERSION))
      throw new StorageError(
        'storage-failed',
        `${driver.name} storage is at schema ${String(stored)}, newer than ${STORAGE_SCHEMA_VERSION}, the newest this code reads`,
      );
    const writes: DriverWrite[] = [];
    for (const { key, value } of await driver.list(EPISODE, { values: true })) {
      const decoded = decodeEpisode(key, key.slice(EPISODE.length), value);
      // an unreadable record stays as it is, unindexed, and is reported when read
      if (!(decoded instanceof CorruptRecordError)) writes.push(...indexWrites(decoded));
    }
    await driver.batch([...writes, { key: SCHEMA_KEY, value: String(STORAGE_SCHEMA_VERSION) }]);
  };

  /** One operation: the layout is current first; a failure is a typed error; reports go out after it settled. */
  const run = async <T>(operation: string, work: (found: CorruptRecordError[]) => Promise<T>): Promise<T> => {
    const found: CorruptRecordError[] = [];
    try {
      if (ready === undefined) {
        const upgrading = upgrade();
        ready = upgrading;
        upgrading.catch(() => {
          if (ready === upgrading) ready = undefined;
        });
      }
      await ready;
      return await work(found);
    } catch (error) {
      if (error instanceof StorageError) throw error;
      throw new StorageError('storage-failed', `${driver.name} storage: ${operation} failed (${describe(error)})`, {
        cause: error,
      });
    } finally {
      for (const error of found) report(error);
    }
  };

  const readEpisode = async (id: string, found: CorruptRecordError[]): Promise<Episode | undefined> => {
    const key = EPISODE + id;
    const text = await driver.get(key);
    return text === undefined ? undefined : usableRecord(decodeEpisode(key, id, text), (error) => found.push(error));
  };
  const readEpisodes = async (found: CorruptRecordError[]): Promise<Episode[]> =>
    (await driver.list(EPISODE, { values: true })).flatMap(
      ({ key, value }) =>
        usableRecord(decodeEpisode(key, key.slice(EPISODE.length), value), (error) => found.push(error)) ?? [],
    );
  /** The index keys of the stored record of `id`; none when there is no readable one. */
  const storedIndexKeys = (id: string, text: string | undefined): string[] => {
    if (text === undefined) return [];
    const decoded = decodeEpisode(EPISODE + id, id, text);
    return decoded instanceof CorruptRecordError ? [] : indexWrites(decoded).map((write) => write.key);
  };
  const idsUnder = async (prefix: string): Promise<string[]> =>
    sortIds((await driver.list(prefix)).map((entry) => entry.key.slice(prefix.length)));
  /** Removes a key in one step and tells what was stored there. */
  const remove = async (key: string): Promise<string | undefined> => {
    let previous: string | undefined;
    await driver.update(key, (current) => {
      previous = current;
      return current === undefined ? undefined : null;
    });
    return previous;
  };

  const episodes: EpisodeStore = {
    async put(list) {
      // every record is checked before the first write; the last of several copies of one id wins
      const prepared = new Map(
        list.map((episode) => [
          checkId(episode?.id, 'episode.id'),
          { text: encodeEpisode(episode), index: indexWrites(episode) },
        ]),
      );
      await run('episodes.put', async () => {
        const ids = [...prepared.keys()];
        const before = await Promise.all(ids.map((id) => driver.get(EPISODE + id)));
        // index first, record second, stale index last: a reader between steps sees old or new, never neither
        const index = ids.flatMap((id) => prepared.get(id)!.index);
        const kept = new Set(index.map((write) => write.key));
        const stale = ids.flatMap((id, at) => storedIndexKeys(id, before[at]).filter((key) => !kept.has(key)));
        await driver.batch([
          ...index,
          ...ids.map((id) => ({ key: EPISODE + id, value: prepared.get(id)!.text })),
          ...stale.map((key) => ({ key, value: null })),
        ]);
      });
    },
    async get(id) {
      checkId(id);
      return run('episodes.get', (found) => readEpisode(id, found));
    },
    async findByPaths(paths, findOptions) {
      const limit = findLimit(findOptions);
      const wanted = wantedPaths(paths);
      if (limit === 0 || wanted.paths.length === 0) return [];
      return run('episodes.findByPaths', async (found) => {
        const entries: PathIndexEntry[] = [];
        const unranked = new Set<string>();
        for (const basename of wanted.basenames) {
          const prefix = basenamePrefix(basename);
          for (const { key, value } of await driver.list(prefix, { values: true })) {
            const entry = readIndexEntry(key.slice(prefix.length), value);
            if (entry) entries.push(entry);
            else unranked.add(key.slice(prefix.length));
          }
        }
        const read = (id: string) => readEpisode(id, found);
        if (unranked.size === 0) return takeRanked(rankIndexEntries(entries, wanted.paths), wanted.paths, limit, read);
        // an index entry without paths and order: read every candidate and rank the records themselves
        const candidates = await Promise.all(
          [...new Set([...unranked, ...entries.map((entry) => entry.id)])].map(read),
        );
        return selectByPaths(
          candidates.filter((episode): episode is Episode => episode !== undefined),
          wanted.paths,
          limit,
        );
      });
    },
    async list(listOptions) {
      const sessionId = listOptions?.sessionId;
      return run('episodes.list', async (found) =>
        newestFirst(
          (await readEpisodes(found)).filter((episode) => sessionId === undefined || episode.sessionId === sessionId),
        ),
      );
    },
    async delete(id) {
      checkId(id);
      return run('episodes.delete', async () => {
        const previous = await remove(EPISODE + id);
        const stale = storedIndexKeys(id, previous);
        if (stale.length > 0) await driver.batch(stale.map((key) => ({ key, value: null })));
        return previous !== undefined;
      });
    },
  };

  const sessions: SessionStore = {
    async load(id) {
      checkId(id);
      return run('sessions.load', async (found) => {
        const key = SESSION + id;
        const text = await driver.get(key);
        const record =
          text === undefined ? undefined : usableRecord(decodeSession(key, id, text), (error) => found.push(error));
        return record === undefined ? undefined : { id, version: record.version, state: record.state };
      });
    },
    async save(id, state, saveOptions) {
      checkId(id);
      const expected = checkExpectedVersion(saveOptions?.expectedVersion);
      const stateText = jsonText(state, 'state');
      return run('sessions.save', async (found) => {
        const key = SESSION + id;
        let version = 0;
        await driver.update(key, (current) => {
          // an unreadable record has no version to keep: it counts as absent and is replaced
          const record =
            current === undefined
              ? undefined
              : usableRecord(decodeSession(key, id, current), (error) => found.push(error));
          const stored = record?.version ?? 0;
          if (expected !== undefined && expected !== stored) throw new SessionConflictError(id, expected, stored);
          version = stored + 1;
          return encodeSession(id, version, stateText);
        });
        return { id, version };
      });
    },
    async delete(id) {
      checkId(id);
      return run('sessions.delete', async () => (await remove(SESSION + id)) !== undefined);
    },
    async list() {
      return run('sessions.list', () => idsUnder(SESSION));
    },
  };

  const rails: RailStore = {
    async load(id) {
      checkId(id);
      return run('rails.load', async (found): Promise<TaskRail | undefined> => {
        const key = RAIL + id;
        const text = await driver.get(key);
        return text === undefined ? undefined : usableRecord(decodeRail(key, id, text), (error) => found.push(error));
      });
    },
    async save(rail) {
      const text = encodeRail(rail);
      await run('rails.save', () => driver.batch([{ key: RAIL + checkId(rail.id, 'rail.id'), value: text }]));
    },
    async delete(id) {
      checkId(id);
      return run('rails.delete', async () => (await remove(RAIL + id)) !== undefined);
    },
    async list() {
      return run('rails.list', () => idsUnder(RAIL));
    },
  };

  return { episodes, sessions, rails };
}
