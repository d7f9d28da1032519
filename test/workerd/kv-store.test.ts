import { env } from 'cloudflare:workers';
import { describe, it, expect } from 'vitest';
import { createKvStore, kvDriver, KV_LIST_PAGE_SIZE, KV_MAX_VALUE_BYTES } from '../../src/storage/kv.ts';
import { KeyTooLongError, ValueTooLargeError } from '../../src/storage/index.ts';
import { makeEpisode } from '../episodes/fixtures.ts';
import { runStorageConformance } from '../storage/storage-conformance.ts';
import { runDriverConformance } from '../storage/driver-conformance.ts';

const freshPrefix = () => `test-${crypto.randomUUID()}/`;

runDriverConformance('kv', async () => kvDriver(env.TEST_KV, freshPrefix()));

runStorageConformance('kv', {
  async create(options) {
    const prefix = freshPrefix();
    return {
      storage: createKvStore(env.TEST_KV, { ...options, prefix }),
      writeRaw: (kind, id, text) => env.TEST_KV.put(`${prefix}${kind}/${id}`, text),
    };
  },
});

describe('kv store: limits and pagination', () => {
  it('lists past 1,000 keys by following the cursor', async () => {
    const prefix = freshPrefix();
    const store = createKvStore(env.TEST_KV, { prefix });
    const ids = Array.from({ length: 1_234 }, (_, index) => `s-${String(index).padStart(5, '0')}`);
    for (let start = 0; start < ids.length; start += 100)
      await Promise.all(ids.slice(start, start + 100).map((id) => store.sessions.save(id, { id })));
    // the namespace itself stops at one page: the store had to follow the cursor
    const firstPage = await env.TEST_KV.list({ prefix: `${prefix}session/` });
    expect(firstPage.keys).toHaveLength(KV_LIST_PAGE_SIZE);
    expect(firstPage.list_complete).toBe(false);
    expect(await store.sessions.list()).toEqual(ids);
  });

  it('finds and lists episodes past 1,000 keys', async () => {
    const store = createKvStore(env.TEST_KV, { prefix: freshPrefix() });
    const episodes = Array.from({ length: 1_020 }, (_, index) =>
      makeEpisode({ start: index * 5, files: [{ path: 'src/app/main.ts', how: 'read' }] }),
    );
    for (let start = 0; start < episodes.length; start += 100)
      await store.episodes.put(episodes.slice(start, start + 100));
    const found = await store.episodes.findByPaths(['main.ts'], { limit: Infinity });
    expect(found).toHaveLength(1_020);
    expect(found[0].id).toBe(episodes[1_019].id);
    expect(await store.episodes.list()).toHaveLength(1_020);
  });

  it('refuses a value over 25 MiB with a clear error and writes nothing', async () => {
    const store = createKvStore(env.TEST_KV, { prefix: freshPrefix() });
    const save = store.sessions.save('huge', { text: 'x'.repeat(KV_MAX_VALUE_BYTES) });
    await expect(save).rejects.toBeInstanceOf(ValueTooLargeError);
    await expect(save).rejects.toMatchObject({ code: 'value-too-large', limitBytes: KV_MAX_VALUE_BYTES });
    await expect(save).rejects.toThrow(/session\/huge.*over the backend's limit of 26214400 bytes/);
    expect(await store.sessions.load('huge')).toBeUndefined();
    expect(await store.sessions.list()).toEqual([]);
  });

  it('counts UTF-8 bytes, not characters, against the value limit', async () => {
    const store = createKvStore(env.TEST_KV, { prefix: freshPrefix() });
    // 9 Mi characters of a three-byte letter: under 25 Mi characters, over 25 MiB
    await expect(store.sessions.save('wide', 'ह'.repeat(9 * 1024 * 1024))).rejects.toBeInstanceOf(ValueTooLargeError);
  });

  it('refuses a key over 512 bytes, and indexes an over-long basename under its hash', async () => {
    const store = createKvStore(env.TEST_KV, { prefix: freshPrefix() });
    await expect(store.sessions.save('k'.repeat(600), {})).rejects.toBeInstanceOf(KeyTooLongError);
    const longName = `${'n'.repeat(700)}.ts`;
    const episode = makeEpisode({ start: 0, files: [{ path: `src/${longName}`, how: 'edited' }] });
    await store.episodes.put([episode]);
    expect(await store.episodes.findByPaths([longName])).toEqual([episode]);
    expect(await store.episodes.delete(episode.id)).toBe(true);
    expect(await store.episodes.findByPaths([longName])).toEqual([]);
  });

  it('drops the stale path index when an episode moves to other files', async () => {
    const prefix = freshPrefix();
    const store = createKvStore(env.TEST_KV, { prefix });
    const episode = makeEpisode({ start: 0, files: [{ path: 'src/a.ts', how: 'edited' }] });
    await store.episodes.put([episode]);
    await store.episodes.put([{ ...episode, files: [{ path: 'src/b.ts', how: 'edited' }] }]);
    const index = await env.TEST_KV.list({ prefix: `${prefix}episode-path/` });
    expect(index.keys.map((key) => key.name)).toEqual([`${prefix}episode-path/b.ts/${episode.id}`]);
  });
});

describe('kv store: data of the layout before storage schema 3', () => {
  it('reads records and index keys as the previous KV store wrote them, and re-indexes them once', async () => {
    const prefix = freshPrefix();
    const episode = makeEpisode({ start: 2, endedAt: 4_000, files: [{ path: 'src/config/loader.ts', how: 'edited' }] });
    const order = [0, -4_000, episode.sessionId, -2, episode.id];
    // what createKvStore wrote before: the record, an empty index value with { p, o } metadata, a session
    await env.TEST_KV.put(
      `${prefix}episode/${episode.id}`,
      JSON.stringify({ recordVersion: 1, kind: 'episode', id: episode.id, episode }),
    );
    await env.TEST_KV.put(`${prefix}episode-path/loader.ts/${episode.id}`, '', {
      metadata: { p: ['src/config/loader.ts'], o: order },
    });
    await env.TEST_KV.put(
      `${prefix}session/s1`,
      JSON.stringify({ recordVersion: 1, kind: 'session', id: 's1', version: 6, state: { calls: 6 } }),
    );
    const store = createKvStore(env.TEST_KV, {
      prefix,
      onCorruptRecord: (error) => {
        throw error;
      },
    });
    expect(await store.episodes.findByPaths(['config/loader.ts'])).toEqual([episode]);
    expect(await store.sessions.load('s1')).toEqual({ id: 's1', version: 6, state: { calls: 6 } });
    expect(await store.sessions.save('s1', { calls: 7 }, { expectedVersion: 6 })).toEqual({ id: 's1', version: 7 });
    expect(await env.TEST_KV.get(`${prefix}meta/schema`)).toBe('3');
    expect(JSON.parse((await env.TEST_KV.get(`${prefix}episode-path/loader.ts/${episode.id}`)) ?? '')).toEqual({
      paths: ['src/config/loader.ts'],
      order,
    });
  });
});
