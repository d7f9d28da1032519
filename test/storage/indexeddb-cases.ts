import { openDB, type IDBPDatabase } from 'idb';
import { describe, it, expect } from 'vitest';
import { createIndexedDbStore, indexedDbDriver, INDEXEDDB_SCHEMA_VERSION } from '../../src/storage/indexeddb.ts';
import {
  SessionConflictError,
  UpgradeBlockedError,
  type CorruptRecordError,
  type RecordKind,
} from '../../src/storage/index.ts';
import type { Episode } from '../../src/episodes/index.ts';
import { makeEpisode } from '../episodes/fixtures.ts';
import { runStorageConformance } from './storage-conformance.ts';
import { runDriverConformance } from './driver-conformance.ts';
import { expectFixtureReadBack } from './fixtures/expect-fixture-read-back.ts';
import type { FixtureContents } from './fixtures/fixture-contents.ts';
import { loadDatabase, type DatabaseDump } from './fixtures/indexeddb-dump.ts';
import schema2 from './fixtures/indexeddb-schema-2.json';

const freshName = () => `warpfold-test-${crypto.randomUUID()}`;

/**
 * The previous schema, as the first release created it: episodes as structured-clone objects with a
 * multiEntry `by-basename` index, sessions as `{ id, version, state }`, no rails.
 */
export async function createVersion1Database(
  name: string,
  contents: { episodes: readonly Episode[]; sessions: ReadonlyArray<{ id: string; version: number; state: unknown }> },
): Promise<void> {
  const database = await openDB(name, 1, {
    upgrade(db) {
      db.createObjectStore('episodes', { keyPath: 'id' }).createIndex('by-basename', 'basenames', { multiEntry: true });
      db.createObjectStore('sessions', { keyPath: 'id' });
    },
  });
  const transaction = database.transaction(['episodes', 'sessions'], 'readwrite');
  for (const episode of contents.episodes)
    void transaction.objectStore('episodes').put({
      ...episode,
      basenames: Array.isArray(episode.files) ? episode.files.map((file) => file.path.split('/').pop()) : [],
    });
  for (const session of contents.sessions) void transaction.objectStore('sessions').put(session);
  await transaction.done;
  database.close();
}

/** Puts raw text as the stored record, as a crash, a bug or a newer writer would. */
async function writeRaw(name: string, kind: RecordKind, id: string, text: string): Promise<void> {
  const database = await openDB(name);
  await database.put('records', text, `${kind}/${id}`);
  database.close();
}

/** The IndexedDB suite: conformance plus upgrade, two connections and a blocked upgrade, in whatever runtime runs it. */
export function runIndexedDbCases(runtime: string): void {
  runDriverConformance(`indexeddb (${runtime})`, async () => indexedDbDriver(freshName()));

  runStorageConformance(`indexeddb (${runtime})`, {
    async create(options) {
      const name = freshName();
      return {
        storage: createIndexedDbStore({ ...options, name }),
        writeRaw: (kind, id, text) => writeRaw(name, kind, id, text),
      };
    },
  });

  describe(`indexeddb store (${runtime})`, () => {
    const loader = makeEpisode({ start: 1, endedAt: 1_000, files: [{ path: 'src/config/loader.ts', how: 'edited' }] });
    const docs = makeEpisode({
      start: 10,
      endedAt: 2_000,
      files: [
        { path: 'docs/config.md', how: 'read' },
        { path: 'src/config/loader.ts', how: 'read' },
      ],
    });
    const untimed = makeEpisode({ sessionId: 'session-b', start: 3, files: [{ path: 'lib/loader.ts', how: 'read' }] });

    it('upgrades a version-1 database in place and keeps every episode and session', async () => {
      const name = freshName();
      await createVersion1Database(name, {
        episodes: [loader, docs, untimed],
        sessions: [{ id: 's1', version: 4, state: { format: 'warpfold/session', calls: 9 } }],
      });
      const reports: CorruptRecordError[] = [];
      const store = createIndexedDbStore({ name, onCorruptRecord: (error) => reports.push(error) });
      expect(await store.episodes.get(loader.id)).toEqual(loader);
      expect((await store.episodes.list()).map((episode) => episode.id)).toEqual([docs.id, loader.id, untimed.id]);
      expect((await store.episodes.findByPaths(['loader.ts'])).map((episode) => episode.id)).toEqual([
        docs.id,
        loader.id,
        untimed.id,
      ]);
      expect((await store.episodes.findByPaths(['src/config/loader.ts'])).map((episode) => episode.id)).toEqual([
        docs.id,
        loader.id,
      ]);
      expect(await store.sessions.load('s1')).toEqual({
        id: 's1',
        version: 4,
        state: { format: 'warpfold/session', calls: 9 },
      });
      // the optimistic version carries over; version 1 had no rails
      await expect(store.sessions.save('s1', { calls: 10 }, { expectedVersion: 3 })).rejects.toBeInstanceOf(
        SessionConflictError,
      );
      expect((await store.sessions.save('s1', { calls: 10 }, { expectedVersion: 4 })).version).toBe(5);
      expect(await store.rails.list()).toEqual([]);
      expect(reports).toEqual([]);
      store.close();
      const raw = await openDB(name);
      expect(raw.version).toBe(INDEXEDDB_SCHEMA_VERSION);
      expect([...raw.objectStoreNames]).toEqual(['records']);
      raw.close();
    });

    it('opens a schema-2 database written by the store of df6ec18 (fixture) and serves all of it', async () => {
      const name = freshName();
      const fixture = schema2 as unknown as { contents: FixtureContents; database: DatabaseDump };
      await loadDatabase(name, fixture.database);
      const reports: CorruptRecordError[] = [];
      const store = createIndexedDbStore({ name, onCorruptRecord: (error) => reports.push(error) });
      await expectFixtureReadBack(store, fixture.contents, reports);
      store.close();
    });

    it('an unreadable version-1 record survives the upgrade and is reported when read', async () => {
      const name = freshName();
      await createVersion1Database(name, {
        episodes: [loader, { ...docs, files: 'not a list' } as unknown as Episode],
        sessions: [{ id: 's1', version: 0, state: 'x' }],
      });
      const reports: CorruptRecordError[] = [];
      const store = createIndexedDbStore({ name, onCorruptRecord: (error) => reports.push(error) });
      expect((await store.episodes.list()).map((episode) => episode.id)).toEqual([loader.id]);
      expect(await store.sessions.load('s1')).toBeUndefined();
      expect(reports.map((report) => [report.kind, report.key])).toEqual([
        ['episode', `episode/${docs.id}`],
        ['session', 'session/s1'],
      ]);
      store.close();
    });

    it("two connections at once see each other's writes, and their concurrent saves have one winner", async () => {
      const name = freshName();
      const first = createIndexedDbStore({ name });
      const second = createIndexedDbStore({ name });
      await first.episodes.put([loader]);
      expect(await second.episodes.get(loader.id)).toEqual(loader);
      await second.sessions.save('s1', { calls: 0 });
      const results = await Promise.allSettled(
        [first, second, first, second].map((store, index) =>
          store.sessions.save('s1', { calls: index + 1 }, { expectedVersion: 1 }),
        ),
      );
      const winners = results.filter((result) => result.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      expect(
        results
          .filter((result) => result.status === 'rejected')
          .every((result) => (result as PromiseRejectedResult).reason instanceof SessionConflictError),
      ).toBe(true);
      expect(await first.sessions.load('s1')).toEqual(await second.sessions.load('s1'));
      expect((await first.sessions.load('s1'))?.version).toBe(2);
      first.close();
      second.close();
    });

    it('a blocked upgrade rejects with UpgradeBlockedError, and opens once the old connection lets go', async () => {
      const name = freshName();
      await createVersion1Database(name, { episodes: [loader], sessions: [] });
      // an old tab: holds version 1 open and ignores requests to close
      const oldTab: IDBPDatabase = await openDB(name, 1);
      const store = createIndexedDbStore({ name });
      const blocked = store.episodes.get(loader.id);
      await expect(blocked).rejects.toBeInstanceOf(UpgradeBlockedError);
      await expect(blocked).rejects.toMatchObject({
        code: 'upgrade-blocked',
        databaseName: name,
        fromVersion: 1,
        toVersion: INDEXEDDB_SCHEMA_VERSION,
      });
      oldTab.close();
      // the next operation opens anew, upgrades, and finds the old data
      await expect.poll(() => store.episodes.get(loader.id).catch((error: unknown) => error)).toEqual(loader);
      store.close();
    });

    it('steps aside when a newer connection asks to upgrade, and reopens on its next operation', async () => {
      const name = freshName();
      const store = createIndexedDbStore({ name });
      await store.sessions.save('s1', { calls: 1 });
      // a newer tab bumps the version; this store must not block it
      const newer = await openDB(name, INDEXEDDB_SCHEMA_VERSION + 1);
      expect(newer.version).toBe(INDEXEDDB_SCHEMA_VERSION + 1);
      newer.close();
      await expect(store.sessions.load('s1')).rejects.toMatchObject({ code: 'storage-failed' });
      store.close();
    });

    it('recall by path reads one basename newest first and stops at the limit', async () => {
      const store = createIndexedDbStore({ name: freshName() });
      const many = Array.from({ length: 60 }, (_, index) =>
        makeEpisode({
          start: index * 5,
          endedAt: 10_000 + index,
          files: [{ path: index % 2 ? 'src/app.ts' : 'lib/app.ts', how: 'read' }],
        }),
      );
      await store.episodes.put(many);
      const found = await store.episodes.findByPaths(['src/app.ts'], { limit: 5 });
      expect(found.map((episode) => episode.span.endedAt)).toEqual([10_059, 10_057, 10_055, 10_053, 10_051]);
      expect(
        (await store.episodes.findByPaths(['app.ts'], { limit: 3 })).map((episode) => episode.span.endedAt),
      ).toEqual([10_059, 10_058, 10_057]);
      expect(
        (await store.episodes.list({ sessionId: 'session-a' })).slice(0, 2).map((episode) => episode.span.endedAt),
      ).toEqual([10_059, 10_058]);
      store.close();
    });
  });
}
