import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, it, expect } from 'vitest';
import { createDurableObjectStore, DURABLE_OBJECT_SCHEMA_VERSION, type StorageOptions, type WarpfoldStorage } from '../../src/storage/durable-object.ts';
import { runStorageConformance } from '../storage/storage-conformance.ts';

type Stub = DurableObjectStub;

/**
 * A storage whose every call runs inside the Durable Object, through its own `ctx.storage`, the way a
 * DO class uses it. Each call opens the store anew, as a restarted object would.
 */
function storageInside(stub: Stub, options: StorageOptions): WarpfoldStorage {
  const area = <K extends keyof WarpfoldStorage>(name: K): WarpfoldStorage[K] =>
    new Proxy({} as WarpfoldStorage[K], {
      // not a thenable: `await` on the store must not call into the object
      get: (_, method: string) => method === 'then' ? undefined : (...args: unknown[]) =>
        runInDurableObject(stub, (_instance, state) => {
          const store = createDurableObjectStore(state.storage, options)[name] as unknown as Record<string, (...parameters: unknown[]) => unknown>;
          return store[method](...args);
        }),
    });
  return { episodes: area('episodes'), sessions: area('sessions'), rails: area('rails') };
}

const rawTables = { episode: 'warpfold_episodes', session: 'warpfold_sessions', rail: 'warpfold_rails' } as const;

runStorageConformance('durable-object', {
  async create(options) {
    const stub = env.TEST_OBJECT.getByName(crypto.randomUUID());
    return {
      storage: storageInside(stub, options),
      writeRaw: (kind, id, text) =>
        runInDurableObject(stub, (_instance, state) => {
          state.storage.sql.exec(`UPDATE ${rawTables[kind]} SET record = ? WHERE id = ?`, text, id);
        }),
    };
  },
});

describe('durable object store', () => {
  it('creates its tables once and records the schema version', async () => {
    const stub = env.TEST_OBJECT.getByName(crypto.randomUUID());
    const rows = await runInDurableObject(stub, async (_instance, state) => {
      await createDurableObjectStore(state.storage).sessions.save('s', { a: 1 });
      await createDurableObjectStore(state.storage).sessions.save('s', { a: 2 });
      return {
        schema: state.storage.sql.exec("SELECT value FROM warpfold_meta WHERE key = 'schema'").toArray(),
        tables: state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'warpfold_%' ORDER BY name").toArray().map((row) => row.name),
      };
    });
    expect(rows.schema).toEqual([{ value: String(DURABLE_OBJECT_SCHEMA_VERSION) }]);
    expect(rows.tables).toEqual(['warpfold_episode_paths', 'warpfold_episodes', 'warpfold_meta', 'warpfold_rails', 'warpfold_sessions']);
  });

  it('writes a batch of episodes whole or not at all', async () => {
    const stub = env.TEST_OBJECT.getByName(crypto.randomUUID());
    const listed = await runInDurableObject(stub, async (_instance, state) => {
      const store = createDurableObjectStore(state.storage);
      const good = { id: 'ep-1', sessionId: 's', request: '', files: [{ path: 'a.ts', how: 'read' as const }], conclusions: [], outcome: 'open' as const, span: { startIndex: 0, endIndex: 1 } };
      await expect(store.episodes.put([good, { ...good, id: 'ep-2', span: { startIndex: -1, endIndex: 1 } }])).rejects.toMatchObject({ code: 'invalid-input' });
      return store.episodes.list();
    });
    expect(listed).toEqual([]);
  });
});
