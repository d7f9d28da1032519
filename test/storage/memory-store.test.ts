import { describe, it, expect } from 'vitest';
import { createMemoryStore, memoryDriver } from '../../src/storage/memory.ts';
import {
  createStorage,
  StorageError,
  STORAGE_SCHEMA_VERSION,
  type CorruptRecordError,
  type StorageDriver,
} from '../../src/storage/index.ts';
import { makeEpisode } from '../episodes/fixtures.ts';
import { runDriverConformance } from './driver-conformance.ts';
import { runStorageConformance } from './storage-conformance.ts';

runStorageConformance('memory', {
  async create(options) {
    const records = new Map<string, string>();
    return {
      storage: createMemoryStore({ ...options, records }),
      async writeRaw(kind, id, text) {
        records.set(`${kind}/${id}`, text);
      },
    };
  },
});

describe('memory store', () => {
  it('holds JSON text only, and a second store over the same records reads and indexes them', async () => {
    const records = new Map<string, string>();
    const first = createMemoryStore({ records });
    await first.sessions.save('s1', { calls: 1 });
    await first.episodes.put([
      {
        id: 'ep-1',
        sessionId: 's',
        request: '',
        files: [{ path: 'src/a.ts', how: 'read' }],
        conclusions: [],
        outcome: 'open',
        span: { startIndex: 0, endIndex: 1 },
      },
    ]);
    expect([...records.values()].every((value) => typeof value === 'string')).toBe(true);
    const second = createMemoryStore({ records });
    expect((await second.episodes.findByPaths(['a.ts'])).map((episode) => episode.id)).toEqual(['ep-1']);
    expect(await second.sessions.load('s1')).toEqual({ id: 's1', version: 1, state: { calls: 1 } });
  });

  it('warns by default when it skips a corrupt record', async () => {
    const records = new Map<string, string>([['session/s1', '{']]);
    const warnings: unknown[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      expect(await createMemoryStore({ records }).sessions.load('s1')).toBeUndefined();
    } finally {
      console.warn = original;
    }
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0])).toContain('session/s1');
  });
});

runDriverConformance('memory', async () => memoryDriver());

describe('createStorage over any driver', () => {
  const episode = makeEpisode({ start: 3, endedAt: 2_000, files: [{ path: 'src/config/loader.ts', how: 'edited' }] });

  it('a failure inside a driver reaches the caller as a StorageError naming the driver and the operation, with the cause', async () => {
    const broken = new TypeError('socket closed');
    const driver: StorageDriver = { ...memoryDriver(), name: 'flaky', get: async () => Promise.reject(broken) };
    const rejection = await createStorage(driver)
      .sessions.load('s1')
      .catch((error: unknown) => error);
    expect(rejection).toBeInstanceOf(StorageError);
    expect(rejection).toMatchObject({ code: 'storage-failed', cause: broken });
    expect(String((rejection as Error).message)).toMatch(/flaky storage: .*failed \(TypeError: socket closed\)/);
  });

  it('storage of a newer schema is refused, not guessed at', async () => {
    const records = new Map([['meta/schema', String(STORAGE_SCHEMA_VERSION + 1)]]);
    await expect(createMemoryStore({ records }).sessions.list()).rejects.toMatchObject({
      code: 'storage-failed',
      message: expect.stringContaining(`schema ${STORAGE_SCHEMA_VERSION + 1}`),
    });
  });

  it('records of an older layout (no path index, no schema key) are indexed on the first operation, once', async () => {
    const records = new Map([
      [`episode/${episode.id}`, JSON.stringify({ recordVersion: 1, kind: 'episode', id: episode.id, episode })],
      ['episode/ep-broken', '{ not json'],
      // an index key as KV wrote it before schema 3: no paths and order in its value
      [`episode-path/stale.ts/${episode.id}`, ''],
    ]);
    const reports: CorruptRecordError[] = [];
    const store = createMemoryStore({ records, onCorruptRecord: (error) => reports.push(error) });
    expect(await store.episodes.findByPaths(['config/loader.ts'])).toEqual([episode]);
    expect(records.get('meta/schema')).toBe(String(STORAGE_SCHEMA_VERSION));
    expect(JSON.parse(records.get(`episode-path/loader.ts/${episode.id}`) ?? '')).toEqual({
      paths: ['src/config/loader.ts'],
      order: [0, -2_000, episode.sessionId, -3, episode.id],
    });
    expect(reports).toEqual([]);
    // an index key without paths and order still leads to the record, which is re-checked
    expect(await store.episodes.findByPaths(['stale.ts'])).toEqual([]);
    expect(await store.episodes.get('ep-broken')).toBeUndefined();
    expect(reports.map((report) => report.key)).toEqual(['episode/ep-broken']);
  });

  it('lists ids of any backend order in code-unit order', async () => {
    const records = new Map<string, string>();
    const store = createMemoryStore({ records });
    for (const id of ['é', 'b', '🏁', 'B', 'a/b', '\uffff']) await store.sessions.save(id, 1);
    expect(await store.sessions.list()).toEqual(['B', 'a/b', 'b', 'é', '🏁', '\uffff']);
  });
});
