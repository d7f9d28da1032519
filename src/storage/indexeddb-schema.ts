import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { Episode } from '../episodes/types.ts';
import { episodeOrderKey, episodePathsByBasename, type EpisodeOrderKey } from './episode-lookup.ts';
import { checkEpisodeShape, encodeEpisode, encodeSession } from './record-format.ts';

/**
 * The IndexedDB layout, version by version.
 *
 * Version 1 (the first release): `episodes` held each episode as a structured-clone object with a
 * multiEntry `by-basename` index over its `basenames`; `sessions` held `{ id, version, state }`.
 * There were no rails.
 *
 * Version 2 (now): every record is JSON text in `text` (so IndexedDB holds what every other backend
 * holds, corruption is detectable and a read is always a fresh object), beside the keys its
 * indexes need. The indexes answer recall's queries in its own order, newest first:
 * - `by-path` (multiEntry over `pathKeys`, one `[basename, ...order, path]` per file): recall by path
 *   walks one basename's keys newest first, matches the path inside the key, reads only the values
 *   of matches and stops after `limit` of them;
 * - `newest` (over `order`): `list()` newest first;
 * - `by-session` (over `sessionOrder`, `[sessionId, ...order]`): one session's episodes, newest first.
 * `order` sorts exactly as `compareEpisodesNewestFirst`: known times first (newest first), then
 * session id, later span starts first, then id. `sessions` and `rails` hold `{ id, text }`.
 */
export const INDEXEDDB_SCHEMA_VERSION = 2;

/** `[basename, ...order, normalised path]`: recall filters on the path in the key before reading a value. */
export type EpisodePathKey = [string, number, number, string, number, string, string];
export type EpisodeSessionKey = [string, number, number, string, number, string];

export interface EpisodeRow {
  readonly id: string;
  readonly text: string;
  readonly order: EpisodeOrderKey;
  readonly sessionOrder: EpisodeSessionKey;
  readonly pathKeys: EpisodePathKey[];
}

export interface TextRow {
  readonly id: string;
  readonly text: string;
}

export interface WarpfoldDatabase extends DBSchema {
  episodes: { key: string; value: EpisodeRow; indexes: { 'by-path': EpisodePathKey; newest: EpisodeOrderKey; 'by-session': EpisodeSessionKey } };
  sessions: { key: string; value: TextRow };
  rails: { key: string; value: TextRow };
}

export function episodeRow(episode: Episode, text: string): EpisodeRow {
  const order = episodeOrderKey(episode);
  const pathKeys: EpisodePathKey[] = [];
  for (const [basename, paths] of episodePathsByBasename(episode)) for (const path of paths) pathKeys.push([basename, ...order, path]);
  return { id: episode.id, text, order, sessionOrder: [episode.sessionId, ...order], pathKeys };
}

/** Every key of one basename in `by-path` (arrays sort after every number and string). */
export function pathRange(basename: string): IDBKeyRange {
  return IDBKeyRange.bound([basename], [basename, []]);
}

export function sessionRange(sessionId: string): IDBKeyRange {
  return IDBKeyRange.bound([sessionId], [sessionId, []]);
}

type UpgradeTransaction = IDBPTransaction<WarpfoldDatabase, StoreNames<WarpfoldDatabase>[], 'versionchange'>;

/**
 * Runs inside the `versionchange` transaction: creates what is missing and rewrites older records in
 * place, so an upgrade keeps every record or (if anything throws) leaves the old version untouched.
 */
export function upgradeSchema(database: IDBPDatabase<WarpfoldDatabase>, oldVersion: number, transaction: UpgradeTransaction): void {
  if (oldVersion < 1) {
    database.createObjectStore('episodes', { keyPath: 'id' });
    database.createObjectStore('sessions', { keyPath: 'id' });
  }
  if (oldVersion < 2) {
    const episodes = transaction.objectStore('episodes');
    // version 1 indexed `basenames`; the name is not in today's schema type
    const legacy = episodes as unknown as { indexNames: DOMStringList; deleteIndex(name: string): void };
    if (legacy.indexNames.contains('by-basename')) legacy.deleteIndex('by-basename');
    episodes.createIndex('by-path', 'pathKeys', { multiEntry: true });
    episodes.createIndex('newest', 'order');
    episodes.createIndex('by-session', 'sessionOrder');
    database.createObjectStore('rails', { keyPath: 'id' });
    if (oldVersion === 1) {
      const abort = () => transaction.abort();
      rewrite(episodes, abort, (value) => {
        // version 1 kept the index field `basenames` inside the episode object
        const { basenames: _basenames, ...bare } = value as Record<string, unknown>;
        const shaped = checkEpisodeShape(bare);
        // an unreadable old record is kept as text and reported when read, never dropped here
        return shaped ? episodeRow(shaped, encodeEpisode(shaped)) : { id: String((value as { id?: unknown })?.id), text: safeText(value), order: [2, 0, '', 0, ''], sessionOrder: ['', 2, 0, '', 0, ''], pathKeys: [] };
      });
      rewrite(transaction.objectStore('sessions'), abort, (value) => {
        const old = value as { id: string; version?: unknown; state?: unknown };
        const valid = Number.isSafeInteger(old.version) && (old.version as number) >= 1 && old.state !== undefined;
        return { id: old.id, text: valid ? encodeSession(old.id, old.version as number, JSON.stringify(old.state)) : safeText(value) };
      });
    }
  }
}

function safeText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return String(value);
  }
}

interface RewritableStore<Value> {
  openCursor(): Promise<{ value: unknown; update(value: Value): unknown; continue(): Promise<unknown> } | null>;
}

/**
 * Walks a store with a cursor and replaces each value within the upgrade transaction. Anything that
 * fails aborts the whole upgrade, so the database stays at its old version with its old records.
 */
function rewrite<Value>(store: RewritableStore<Value>, abort: () => void, convert: (value: unknown) => Value): void {
  void (async () => {
    let cursor = await store.openCursor();
    while (cursor) {
      cursor.update(convert(cursor.value));
      cursor = (await cursor.continue()) as typeof cursor;
    }
  })().catch(abort);
}
