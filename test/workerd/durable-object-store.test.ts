import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, it, expect } from 'vitest';
import {
  createDurableObjectStore,
  DURABLE_OBJECT_SCHEMA_VERSION,
  durableObjectDriver,
} from '../../src/storage/durable-object.ts';
import type { CorruptRecordError, StorageOptions, WarpfoldStorage } from '../../src/storage/index.ts';
import { runStorageConformance } from '../storage/storage-conformance.ts';
import { runDriverConformance } from '../storage/driver-conformance.ts';
import type { StorageDriver } from '../../src/storage/index.ts';
import { makeEpisode } from '../episodes/fixtures.ts';
import type { Episode } from '../../src/episodes/index.ts';
import { loadTables, type TablesDump } from '../storage/fixtures/durable-object-dump.ts';
import { expectFixtureReadBack } from '../storage/fixtures/expect-fixture-read-back.ts';
import type { FixtureContents } from '../storage/fixtures/fixture-contents.ts';
import schema2 from '../storage/fixtures/durable-object-schema-2.json';

type Stub = DurableObjectStub;

/**
 * A storage whose every call runs inside the Durable Object, through its own `ctx.storage`, the way a
 * DO class uses it. Each call opens the store anew, as a restarted object would.
 */
function storageInside(stub: Stub, options: StorageOptions): WarpfoldStorage {
  const area = <K extends keyof WarpfoldStorage>(name: K): WarpfoldStorage[K] =>
    new Proxy({} as WarpfoldStorage[K], {
      // not a thenable: `await` on the store must not call into the object
      get: (_, method: string) =>
        method === 'then'
          ? undefined
          : (...args: unknown[]) =>
              runInDurableObject(stub, (_instance, state) => {
                const store = createDurableObjectStore(state.storage, options)[name] as unknown as Record<
                  string,
                  (...parameters: unknown[]) => unknown
                >;
                return store[method](...args);
              }),
    });
  return { episodes: area('episodes'), sessions: area('sessions'), rails: area('rails') };
}

/** A driver whose every call runs inside the Durable Object, over a driver opened anew each time. */
function driverInside(stub: Stub): StorageDriver {
  const inside =
    (method: 'get' | 'list' | 'update' | 'batch') =>
    (...args: unknown[]) =>
      runInDurableObject(stub, (_instance, state) =>
        (durableObjectDriver(state.storage)[method] as (...parameters: unknown[]) => unknown)(...args),
      );
  return {
    name: 'durable-object',
    get: inside('get'),
    list: inside('list'),
    update: inside('update'),
    batch: inside('batch'),
  } as StorageDriver;
}

runDriverConformance('durable-object', async () => driverInside(env.TEST_OBJECT.getByName(crypto.randomUUID())));

runStorageConformance('durable-object', {
  async create(options) {
    const stub = env.TEST_OBJECT.getByName(crypto.randomUUID());
    return {
      storage: storageInside(stub, options),
      writeRaw: (kind, id, text) =>
        runInDurableObject(stub, (_instance, state) => {
          state.storage.sql.exec('UPDATE warpfold_records SET value = ? WHERE key = ?', text, `${kind}/${id}`);
        }),
    };
  },
});

/** The tables as schema 1 created them, with one episode and one session written the way it wrote them. */
function createSchemaVersion1(sql: DurableObjectStorage['sql'], episode: Episode): void {
  sql.exec('CREATE TABLE warpfold_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  sql.exec('CREATE TABLE warpfold_episodes (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, record TEXT NOT NULL)');
  sql.exec('CREATE INDEX warpfold_episodes_by_session ON warpfold_episodes (session_id)');
  sql.exec(
    'CREATE TABLE warpfold_episode_paths (basename TEXT NOT NULL, episode_id TEXT NOT NULL, PRIMARY KEY (basename, episode_id))',
  );
  sql.exec('CREATE INDEX warpfold_episode_paths_by_episode ON warpfold_episode_paths (episode_id)');
  sql.exec('CREATE TABLE warpfold_sessions (id TEXT PRIMARY KEY, record TEXT NOT NULL)');
  sql.exec('CREATE TABLE warpfold_rails (id TEXT PRIMARY KEY, record TEXT NOT NULL)');
  sql.exec("INSERT INTO warpfold_meta (key, value) VALUES ('schema', '1')");
  sql.exec(
    'INSERT INTO warpfold_episodes (id, session_id, record) VALUES (?, ?, ?)',
    episode.id,
    episode.sessionId,
    JSON.stringify({ recordVersion: 1, kind: 'episode', id: episode.id, episode }),
  );
  sql.exec('INSERT INTO warpfold_episode_paths (basename, episode_id) VALUES (?, ?)', 'loader.ts', episode.id);
  sql.exec('INSERT INTO warpfold_episodes (id, session_id, record) VALUES (?, ?, ?)', 'ep-broken', 's', '{ not json');
  sql.exec(
    'INSERT INTO warpfold_sessions (id, record) VALUES (?, ?)',
    's1',
    JSON.stringify({ recordVersion: 1, kind: 'session', id: 's1', version: 3, state: { calls: 3 } }),
  );
}

describe('durable object store', () => {
  it('upgrades schema 1 in place: records moved to one table, the path index rebuilt, versions carried over', async () => {
    const stub = env.TEST_OBJECT.getByName(crypto.randomUUID());
    const episode = makeEpisode({
      start: 2,
      endedAt: 5_000,
      files: [{ path: './src//config/loader.ts', how: 'edited' }],
    });
    const result = await runInDurableObject(stub, async (_instance, state) => {
      createSchemaVersion1(state.storage.sql, episode);
      const reports: string[] = [];
      const store = createDurableObjectStore(state.storage, { onCorruptRecord: (error) => reports.push(error.key) });
      return {
        found: await store.episodes.findByPaths(['config/loader.ts']),
        session: await store.sessions.load('s1'),
        saved: await store.sessions.save('s1', { calls: 4 }, { expectedVersion: 3 }),
        listed: (await store.episodes.list()).map((listed) => listed.id),
        reports,
        schema: state.storage.sql.exec("SELECT value FROM warpfold_meta WHERE key = 'schema'").toArray(),
        index: state.storage.sql
          .exec("SELECT key, value FROM warpfold_records WHERE key LIKE 'episode-path/%'")
          .toArray(),
        tables: state.storage.sql
          .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'warpfold_%' ORDER BY name")
          .toArray()
          .map((row) => row.name),
      };
    });
    expect(result.found).toEqual([episode]);
    expect(result.session).toEqual({ id: 's1', version: 3, state: { calls: 3 } });
    expect(result.saved).toEqual({ id: 's1', version: 4 });
    expect(result.listed).toEqual([episode.id]);
    expect(result.reports).toEqual(['episode/ep-broken']);
    expect(result.schema).toEqual([{ value: String(DURABLE_OBJECT_SCHEMA_VERSION) }]);
    expect(result.index).toEqual([
      {
        key: `episode-path/loader.ts/${episode.id}`,
        value: JSON.stringify({
          paths: ['src/config/loader.ts'],
          order: [0, -5_000, episode.sessionId, -2, episode.id],
        }),
      },
    ]);
    expect(result.tables).toEqual(['warpfold_meta', 'warpfold_records']);
  });

  it('opens tables of schema 2 written by the store of df6ec18 (fixture) and serves all of it', async () => {
    const stub = env.TEST_OBJECT.getByName(crypto.randomUUID());
    const fixture = schema2 as unknown as { contents: FixtureContents; tables: TablesDump };
    await runInDurableObject(stub, async (_instance, state) => {
      loadTables(state.storage.sql, fixture.tables);
      const reports: CorruptRecordError[] = [];
      await expectFixtureReadBack(
        createDurableObjectStore(state.storage, { onCorruptRecord: (error) => reports.push(error) }),
        fixture.contents,
        reports,
      );
    });
  });

  it('creates its tables once and records the schema version', async () => {
    const stub = env.TEST_OBJECT.getByName(crypto.randomUUID());
    const rows = await runInDurableObject(stub, async (_instance, state) => {
      await createDurableObjectStore(state.storage).sessions.save('s', { a: 1 });
      await createDurableObjectStore(state.storage).sessions.save('s', { a: 2 });
      return {
        schema: state.storage.sql.exec("SELECT value FROM warpfold_meta WHERE key = 'schema'").toArray(),
        tables: state.storage.sql
          .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'warpfold_%' ORDER BY name")
          .toArray()
          .map((row) => row.name),
      };
    });
    expect(rows.schema).toEqual([{ value: String(DURABLE_OBJECT_SCHEMA_VERSION) }]);
    expect(rows.tables).toEqual(['warpfold_meta', 'warpfold_records']);
  });

  it('writes a batch of episodes whole or not at all', async () => {
    const stub = env.TEST_OBJECT.getByName(crypto.randomUUID());
    const listed = await runInDurableObject(stub, async (_instance, state) => {
      const store = createDurableObjectStore(state.storage);
      const good = {
        id: 'ep-1',
        sessionId: 's',
        request: '',
        files: [{ path: 'a.ts', how: 'read' as const }],
        conclusions: [],
        outcome: 'open' as const,
        span: { startIndex: 0, endIndex: 1 },
      };
      await expect(
        store.episodes.put([good, { ...good, id: 'ep-2', span: { startIndex: -1, endIndex: 1 } }]),
      ).rejects.toMatchObject({ code: 'invalid-input' });
      return store.episodes.list();
    });
    expect(listed).toEqual([]);
  });
});
