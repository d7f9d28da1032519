import { describe, it, expect } from 'vitest';
import type { Episode, EpisodeStore } from '../../src/episodes/index.ts';
import { makeEpisode } from './fixtures.ts';

/**
 * The contract every EpisodeStore backend must meet. `runStorageConformance` (test/storage) runs it
 * for every storage driver, as `runEpisodeStoreConformance(name, () => storage.episodes)`;
 * `createStore` must return a fresh, empty store on every call.
 */
export function runEpisodeStoreConformance(
  name: string,
  createStore: () => EpisodeStore | Promise<EpisodeStore>,
): void {
  const loader = makeEpisode({
    start: 1,
    endedAt: 1_000,
    files: [{ path: 'src/config/loader.ts', how: 'edited' }],
    conclusions: [{ kind: 'verdict', text: '🏁 loader fixed', paths: ['src/config/loader.ts'] }],
  });
  const docs = makeEpisode({
    start: 10,
    endedAt: 2_000,
    files: [
      { path: 'docs/config.md', how: 'read' },
      { path: 'src/config/loader.ts', how: 'read' },
    ],
  });
  const other = makeEpisode({
    sessionId: 'session-b',
    start: 0,
    endedAt: 3_000,
    files: [{ path: '/home/dev/repo/lib/config/loader.ts', how: 'created' }],
  });
  const absolute = makeEpisode({
    sessionId: 'session-c',
    start: 4,
    endedAt: 500,
    files: [{ path: '/srv/app/src/config/loader.ts', how: 'read' }],
  });
  const ids = (episodes: readonly Episode[]) => episodes.map((episode) => episode.id);

  describe(`EpisodeStore conformance: ${name}`, () => {
    it('gets what it put, and nothing it did not', async () => {
      const store = await createStore();
      await store.put([loader, docs]);
      expect(await store.get(loader.id)).toEqual(loader);
      expect(await store.get(docs.id)).toEqual(docs);
      expect(await store.get('ep-missing')).toBeUndefined();
    });

    it('hands out copies: neither the input nor a result is live', async () => {
      const store = await createStore();
      const input = structuredClone(loader) as { -readonly [K in keyof Episode]: Episode[K] };
      await store.put([input]);
      input.outcome = 'failed';
      const first = (await store.get(loader.id)) as { -readonly [K in keyof Episode]: Episode[K] };
      expect(first.outcome).toBe('succeeded');
      first.outcome = 'abandoned';
      expect((await store.get(loader.id))?.outcome).toBe('succeeded');
      const listed = (await store.list())[0] as { -readonly [K in keyof Episode]: Episode[K] };
      listed.request = 'changed';
      expect((await store.get(loader.id))?.request).toBe(loader.request);
    });

    it('keeps values that survive JSON unchanged', async () => {
      const store = await createStore();
      await store.put([loader]);
      expect(JSON.parse(JSON.stringify(await store.get(loader.id)))).toEqual(loader);
    });

    it('replaces by id and re-indexes the paths', async () => {
      const store = await createStore();
      await store.put([loader]);
      const moved: Episode = { ...loader, files: [{ path: 'src/moved.ts', how: 'edited' }] };
      await store.put([moved]);
      expect(await store.get(loader.id)).toEqual(moved);
      expect(await store.findByPaths(['src/config/loader.ts'])).toEqual([]);
      expect(ids(await store.findByPaths(['src/moved.ts']))).toEqual([loader.id]);
      expect(await store.list()).toHaveLength(1);
    });

    it('finds episodes by path under any spelling of the same file, newest first', async () => {
      const store = await createStore();
      await store.put([absolute, loader, other, docs]);
      expect(ids(await store.findByPaths(['src/config/loader.ts']))).toEqual([docs.id, loader.id, absolute.id]);
      expect(ids(await store.findByPaths(['./src//config/loader.ts']))).toEqual([docs.id, loader.id, absolute.id]);
      expect(ids(await store.findByPaths(['/elsewhere/src/config/loader.ts']))).toEqual([docs.id, loader.id]);
      expect(ids(await store.findByPaths(['lib/config/loader.ts']))).toEqual([other.id]);
      expect(ids(await store.findByPaths(['config/loader.ts']))).toEqual([other.id, docs.id, loader.id, absolute.id]);
      expect(await store.findByPaths(['app/config/loader.ts'])).toEqual([]);
    });

    it('unions several paths without duplicates and honours the limit', async () => {
      const store = await createStore();
      await store.put([loader, docs, other]);
      expect(ids(await store.findByPaths(['docs/config.md', 'src/config/loader.ts']))).toEqual([docs.id, loader.id]);
      expect(ids(await store.findByPaths(['docs/config.md', 'src/config/loader.ts'], { limit: 1 }))).toEqual([docs.id]);
      expect(await store.findByPaths(['docs/config.md'], { limit: 0 })).toEqual([]);
      expect(await store.findByPaths([])).toEqual([]);
    });

    it('lists everything or one session, newest first', async () => {
      const store = await createStore();
      await store.put([loader, other, docs]);
      expect(ids(await store.list())).toEqual([other.id, docs.id, loader.id]);
      expect(ids(await store.list({ sessionId: 'session-a' }))).toEqual([docs.id, loader.id]);
      expect(await store.list({ sessionId: 'nobody' })).toEqual([]);
    });

    it('deletes from every view', async () => {
      const store = await createStore();
      await store.put([loader, docs]);
      expect(await store.delete(loader.id)).toBe(true);
      expect(await store.delete(loader.id)).toBe(false);
      expect(await store.get(loader.id)).toBeUndefined();
      expect(ids(await store.findByPaths(['src/config/loader.ts']))).toEqual([docs.id]);
      expect(ids(await store.list())).toEqual([docs.id]);
    });

    it('starts empty', async () => {
      const store = await createStore();
      expect(await store.list()).toEqual([]);
      expect(await store.findByPaths(['src/config/loader.ts'])).toEqual([]);
    });
  });
}
