import { describe, it, expect } from 'vitest';
import { runEpisodeStoreConformance } from '../episodes/episode-store-conformance.ts';
import { makeEpisode } from '../episodes/fixtures.ts';
import type { Episode } from '../../src/episodes/index.ts';
import { serializeTaskRail, shoot, startTaskRail, type TaskRail } from '../../src/task-rail/index.ts';
import {
  CorruptRecordError,
  SessionConflictError,
  StorageInputError,
  type JsonValue,
  type RecordKind,
  type StorageOptions,
  type WarpfoldStorage,
} from '../../src/storage/index.ts';

/** What a backend's test file hands the suite. */
export interface StorageHarness {
  /**
   * A fresh, empty storage on every call, plus `writeRaw`, which puts `text` as the stored record of
   * `id` straight into the backend (bypassing the store), the way a crash, a bug or a newer writer would.
   */
  create(
    options: StorageOptions,
  ): Promise<{ storage: WarpfoldStorage; writeRaw(kind: RecordKind, id: string, text: string): Promise<void> }>;
}

/** A store whose corruption reports are collected for the test to check. */
async function open(harness: StorageHarness) {
  const reports: CorruptRecordError[] = [];
  const opened = await harness.create({ onCorruptRecord: (error) => reports.push(error) });
  return { ...opened, reports };
}

const RAIL_START = 1_700_000_000_000;

function railOf(id: string, title = 'Ship it'): TaskRail {
  const result = startTaskRail({
    id,
    title,
    steps: [
      { id: 'a', title: 'Inspect' },
      { id: 'b', title: 'Patch', detail: 'only parser.ts' },
    ],
    now: RAIL_START,
  });
  if (!result.ok) throw new Error(result.error.message);
  return result.rail;
}

/** A state shaped like the lead's saved format; the store must not care what is inside. */
function stateOf(calls: number): { [key: string]: JsonValue } {
  return {
    format: 'warpfold/session',
    version: 2,
    calls,
    bands: [{ text: `band ✂ «${calls}» \u2028 "quoted" \\ back`, start: 0, end: calls }],
    digest: `d-${calls}`,
  };
}

/**
 * The storage contract every backend meets: the EpisodeStore suite, then sessions, rails and
 * corrupt records. Runs in each backend's real runtime.
 */
export function runStorageConformance(name: string, harness: StorageHarness): void {
  runEpisodeStoreConformance(name, async () => {
    const { storage, reports } = await open(harness);
    const store = storage.episodes;
    // the episode suite writes nothing corrupt: any report there is a defect
    return new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const result = await value.apply(target, args);
          expect(reports).toEqual([]);
          return result;
        };
      },
    });
  });

  describe(`SessionStore conformance: ${name}`, () => {
    it('loads nothing for an unknown id and lists nothing when empty', async () => {
      const { storage } = await open(harness);
      expect(await storage.sessions.load('missing')).toBeUndefined();
      expect(await storage.sessions.list()).toEqual([]);
    });

    it('saves at version 1, then one more per save, and loads what was saved', async () => {
      const { storage } = await open(harness);
      expect(await storage.sessions.save('s1', stateOf(1))).toEqual({ id: 's1', version: 1 });
      expect(await storage.sessions.load('s1')).toEqual({ id: 's1', version: 1, state: stateOf(1) });
      expect(await storage.sessions.save('s1', stateOf(2), { expectedVersion: 1 })).toEqual({ id: 's1', version: 2 });
      expect(await storage.sessions.load('s1')).toEqual({ id: 's1', version: 2, state: stateOf(2) });
    });

    it("keeps any JSON value: today's snapshot string, numbers, arrays, unicode", async () => {
      const { storage } = await open(harness);
      const values: JsonValue[] = [
        '{"version":1,"bands":[]}',
        0,
        null,
        [1, 'two', { three: [3] }],
        { emoji: '🏁 done', nested: { deep: [true, false] } },
      ];
      for (const [index, value] of values.entries()) await storage.sessions.save(`v${index}`, value);
      for (const [index, value] of values.entries())
        expect((await storage.sessions.load(`v${index}`))?.state).toEqual(value);
    });

    it('hands out fresh objects: neither the saved input nor a loaded state is live', async () => {
      const { storage } = await open(harness);
      const input = stateOf(1) as { calls: number };
      await storage.sessions.save('s1', input);
      input.calls = 99;
      const first = (await storage.sessions.load('s1'))?.state as { calls: number };
      expect(first.calls).toBe(1);
      first.calls = 42;
      expect(((await storage.sessions.load('s1'))!.state as { calls: number }).calls).toBe(1);
    });

    it('refuses a stale expectedVersion with a typed conflict and keeps the newer state', async () => {
      const { storage } = await open(harness);
      await storage.sessions.save('s1', stateOf(1));
      await storage.sessions.save('s1', stateOf(2), { expectedVersion: 1 });
      const stale = storage.sessions.save('s1', stateOf(3), { expectedVersion: 1 });
      await expect(stale).rejects.toBeInstanceOf(SessionConflictError);
      await expect(stale).rejects.toMatchObject({
        code: 'session-conflict',
        sessionId: 's1',
        expectedVersion: 1,
        actualVersion: 2,
      });
      expect(await storage.sessions.load('s1')).toEqual({ id: 's1', version: 2, state: stateOf(2) });
      await expect(storage.sessions.save('s1', stateOf(3), { expectedVersion: 3 })).rejects.toMatchObject({
        actualVersion: 2,
      });
    });

    it('expectedVersion 0 creates only: it conflicts once a session exists', async () => {
      const { storage } = await open(harness);
      expect(await storage.sessions.save('s1', stateOf(1), { expectedVersion: 0 })).toEqual({ id: 's1', version: 1 });
      await expect(storage.sessions.save('s1', stateOf(2), { expectedVersion: 0 })).rejects.toMatchObject({
        code: 'session-conflict',
        actualVersion: 1,
      });
      await expect(storage.sessions.save('absent', stateOf(1), { expectedVersion: 2 })).rejects.toMatchObject({
        actualVersion: 0,
      });
      expect(await storage.sessions.load('absent')).toBeUndefined();
    });

    it('a save without expectedVersion overwrites and still counts the version up', async () => {
      const { storage } = await open(harness);
      await storage.sessions.save('s1', stateOf(1));
      expect(await storage.sessions.save('s1', stateOf(5))).toEqual({ id: 's1', version: 2 });
      expect((await storage.sessions.load('s1'))?.state).toEqual(stateOf(5));
    });

    it('concurrent saves with the same expectedVersion give exactly one winner, whose state is stored', async () => {
      const { storage } = await open(harness);
      await storage.sessions.save('s1', stateOf(0));
      const attempts = [1, 2, 3, 4, 5, 6];
      const results = await Promise.allSettled(
        attempts.map((calls) => storage.sessions.save('s1', stateOf(calls), { expectedVersion: 1 })),
      );
      const winners = results.flatMap((result, index) => (result.status === 'fulfilled' ? [attempts[index]] : []));
      expect(winners).toHaveLength(1);
      for (const result of results)
        if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(SessionConflictError);
      expect(await storage.sessions.load('s1')).toEqual({ id: 's1', version: 2, state: stateOf(winners[0]) });
    });

    it('concurrent first saves with expectedVersion 0 give exactly one winner', async () => {
      const { storage } = await open(harness);
      const results = await Promise.allSettled(
        [1, 2, 3].map((calls) => storage.sessions.save('fresh', stateOf(calls), { expectedVersion: 0 })),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      expect((await storage.sessions.load('fresh'))?.version).toBe(1);
    });

    it('deletes, and lists ids in code-unit order', async () => {
      const { storage } = await open(harness);
      for (const id of ['b', 'a', 'é', 'B', 'a/b c']) await storage.sessions.save(id, stateOf(1));
      expect(await storage.sessions.list()).toEqual(['B', 'a', 'a/b c', 'b', 'é']);
      expect(await storage.sessions.delete('a')).toBe(true);
      expect(await storage.sessions.delete('a')).toBe(false);
      expect(await storage.sessions.load('a')).toBeUndefined();
      expect(await storage.sessions.list()).toEqual(['B', 'a/b c', 'b', 'é']);
      expect((await storage.sessions.save('a', stateOf(2), { expectedVersion: 0 })).version).toBe(1);
    });

    it('refuses bad input with a typed error and writes nothing', async () => {
      const { storage } = await open(harness);
      await expect(storage.sessions.save('', stateOf(1))).rejects.toBeInstanceOf(StorageInputError);
      await expect(storage.sessions.save('s1', undefined as unknown as JsonValue)).rejects.toMatchObject({
        code: 'invalid-input',
        field: 'state',
      });
      await expect(storage.sessions.save('s1', { big: 10n } as unknown as JsonValue)).rejects.toMatchObject({
        field: 'state',
      });
      await expect(storage.sessions.save('s1', stateOf(1), { expectedVersion: -1 })).rejects.toMatchObject({
        field: 'options.expectedVersion',
      });
      await expect(storage.sessions.save('s1', stateOf(1), { expectedVersion: 1.5 })).rejects.toMatchObject({
        field: 'options.expectedVersion',
      });
      expect(await storage.sessions.list()).toEqual([]);
    });

    it('keeps a large state whole', async () => {
      const { storage } = await open(harness);
      const big = {
        format: 'warpfold/session',
        bands: Array.from({ length: 2_000 }, (_, index) => ({
          text: `line ${index} ${'x'.repeat(500)}`,
          start: index,
        })),
      };
      await storage.sessions.save('big', big);
      expect((await storage.sessions.load('big'))?.state).toEqual(big);
    });
  });

  describe(`ids and input, alike in every store: ${name}`, () => {
    it('an empty or non-string id is a StorageInputError naming the id, in every method of every store', async () => {
      const { storage } = await open(harness);
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['episodes.get', () => storage.episodes.get('')],
        ['episodes.delete', () => storage.episodes.delete('')],
        ['sessions.load', () => storage.sessions.load('')],
        ['sessions.save', () => storage.sessions.save('', 1)],
        ['sessions.delete', () => storage.sessions.delete('')],
        ['rails.load', () => storage.rails.load('')],
        ['rails.delete', () => storage.rails.delete('')],
        ['sessions.load(42)', () => storage.sessions.load(42 as unknown as string)],
        ['episodes.get(undefined)', () => storage.episodes.get(undefined as unknown as string)],
      ];
      for (const [label, call] of calls) {
        const error = await call().then(
          () => undefined,
          (rejection: unknown) => rejection,
        );
        expect(error, label).toBeInstanceOf(StorageInputError);
        expect(error, label).toMatchObject({ code: 'invalid-input', field: 'id' });
      }
    });

    it('refuses a batch holding an episode without an id, or of the wrong shape, and stores nothing of it', async () => {
      const { storage } = await open(harness);
      const good = makeEpisode({ start: 0, files: [{ path: 'src/a.ts', how: 'read' }] });
      await expect(storage.episodes.put([good, { ...good, id: '' }])).rejects.toMatchObject({
        code: 'invalid-input',
        field: 'episode.id',
      });
      await expect(
        storage.episodes.put([good, { ...good, id: 'ep-2', outcome: 'won' as 'open' }]),
      ).rejects.toMatchObject({ code: 'invalid-input', field: 'episode.outcome' });
      await expect(storage.episodes.put([good, null as unknown as Episode])).rejects.toBeInstanceOf(StorageInputError);
      await expect(storage.episodes.findByPaths(['src/a.ts'], { limit: -1 })).rejects.toMatchObject({
        code: 'invalid-input',
        field: 'options.limit',
      });
      expect(await storage.episodes.list()).toEqual([]);
      expect(await storage.episodes.findByPaths(['src/a.ts'])).toEqual([]);
    });

    it('keeps separate storages apart', async () => {
      const first = await open(harness);
      const second = await open(harness);
      await first.storage.episodes.put([makeEpisode({ start: 0, files: [{ path: 'a.ts', how: 'read' }] })]);
      await first.storage.sessions.save('s1', 1);
      expect(await second.storage.episodes.list()).toEqual([]);
      expect(await second.storage.sessions.list()).toEqual([]);
    });
  });

  describe(`RailStore conformance: ${name}`, () => {
    it('saves and loads a rail exactly, lists and deletes by id', async () => {
      const { storage } = await open(harness);
      const rail = railOf('rail-1');
      const started = shoot(rail, { now: RAIL_START + 5 });
      if (!started.ok) throw new Error(started.error.message);
      await storage.rails.save(started.rail);
      await storage.rails.save(railOf('rail-0', 'Other'));
      expect(await storage.rails.load('rail-1')).toStrictEqual(started.rail);
      expect(await storage.rails.list()).toEqual(['rail-0', 'rail-1']);
      expect(await storage.rails.delete('rail-0')).toBe(true);
      expect(await storage.rails.delete('rail-0')).toBe(false);
      expect(await storage.rails.load('rail-0')).toBeUndefined();
      expect(await storage.rails.list()).toEqual(['rail-1']);
    });

    it('replaces by id and hands out copies', async () => {
      const { storage } = await open(harness);
      const rail = railOf('rail-1');
      await storage.rails.save(rail);
      await storage.rails.save({ ...rail, title: 'Renamed', revision: rail.revision + 1 });
      const loaded = (await storage.rails.load('rail-1')) as TaskRail;
      expect(loaded.title).toBe('Renamed');
      loaded.steps[0].title = 'changed';
      expect((await storage.rails.load('rail-1'))?.steps[0].title).toBe('Inspect');
    });

    it('refuses a rail restoreTaskRail would reject, naming the field, and writes nothing', async () => {
      const { storage } = await open(harness);
      const rail = railOf('rail-1');
      await expect(
        storage.rails.save({ ...rail, steps: [{ ...rail.steps[0], status: 'dreaming' as 'done' }] }),
      ).rejects.toMatchObject({ code: 'invalid-input', field: 'rail.steps[0].status' });
      await expect(storage.rails.save({ ...rail, id: '' })).rejects.toBeInstanceOf(StorageInputError);
      expect(await storage.rails.list()).toEqual([]);
    });
  });

  describe(`stored records: versions and corruption, ${name}`, () => {
    const loader = makeEpisode({ start: 1, endedAt: 1_000, files: [{ path: 'src/config/loader.ts', how: 'edited' }] });
    const docs = makeEpisode({ start: 10, endedAt: 2_000, files: [{ path: 'src/config/loader.ts', how: 'read' }] });

    it('a corrupt episode is reported with its key and skipped by get, findByPaths and list', async () => {
      const { storage, writeRaw, reports } = await open(harness);
      await storage.episodes.put([loader, docs]);
      await writeRaw('episode', loader.id, '{"recordVersion":1,"kind":"episode","id":"');
      expect(await storage.episodes.get(loader.id)).toBeUndefined();
      expect(reports).toHaveLength(1);
      expect(reports[0]).toBeInstanceOf(CorruptRecordError);
      expect(reports[0]).toMatchObject({ code: 'corrupt-record', kind: 'episode', reason: 'invalid-json' });
      expect(reports[0].key).toContain(loader.id);
      expect((await storage.episodes.findByPaths(['src/config/loader.ts'])).map((episode) => episode.id)).toEqual([
        docs.id,
      ]);
      expect((await storage.episodes.list()).map((episode) => episode.id)).toEqual([docs.id]);
      expect(reports.length).toBeGreaterThanOrEqual(3);
      expect(reports.every((report) => report.key.includes(loader.id))).toBe(true);
      await storage.episodes.put([loader]);
      expect(await storage.episodes.get(loader.id)).toEqual(loader);
    });

    it('an episode record of the wrong shape or another id is corrupt, not served', async () => {
      const { storage, writeRaw, reports } = await open(harness);
      await storage.episodes.put([loader, docs]);
      await writeRaw(
        'episode',
        loader.id,
        JSON.stringify({
          recordVersion: 1,
          kind: 'episode',
          id: loader.id,
          episode: { ...loader, files: 'everything' },
        }),
      );
      await writeRaw(
        'episode',
        docs.id,
        JSON.stringify({ recordVersion: 1, kind: 'episode', id: docs.id, episode: loader }),
      );
      expect(await storage.episodes.list()).toEqual([]);
      expect(reports.map((report) => report.reason)).toEqual(['invalid-record', 'invalid-record']);
    });

    it('a record from a newer writer is reported as future-version and skipped', async () => {
      const { storage, writeRaw, reports } = await open(harness);
      await storage.sessions.save('s1', stateOf(1));
      await writeRaw(
        'session',
        's1',
        JSON.stringify({ recordVersion: 99, kind: 'session', id: 's1', version: 7, state: {} }),
      );
      expect(await storage.sessions.load('s1')).toBeUndefined();
      expect(reports).toMatchObject([{ kind: 'session', reason: 'future-version' }]);
      expect(reports[0].key).toContain('s1');
    });

    it('a corrupt session is reported, still listed, and a save replaces it from version 0', async () => {
      const { storage, writeRaw, reports } = await open(harness);
      await storage.sessions.save('s1', stateOf(1));
      await storage.sessions.save('s2', stateOf(1));
      await writeRaw('session', 's1', 'not json at all');
      expect(await storage.sessions.load('s1')).toBeUndefined();
      expect(await storage.sessions.load('s2')).toEqual({ id: 's2', version: 1, state: stateOf(1) });
      expect(await storage.sessions.list()).toEqual(['s1', 's2']);
      expect(reports).toMatchObject([{ kind: 'session', reason: 'invalid-json' }]);
      await expect(storage.sessions.save('s1', stateOf(2), { expectedVersion: 1 })).rejects.toMatchObject({
        actualVersion: 0,
      });
      expect(await storage.sessions.save('s1', stateOf(2), { expectedVersion: 0 })).toEqual({ id: 's1', version: 1 });
      expect(await storage.sessions.load('s1')).toEqual({ id: 's1', version: 1, state: stateOf(2) });
    });

    it('a corrupt rail is reported and skipped; the others load', async () => {
      const { storage, writeRaw, reports } = await open(harness);
      await storage.rails.save(railOf('rail-1'));
      await storage.rails.save(railOf('rail-2'));
      const serialized = serializeTaskRail(railOf('rail-1'));
      await writeRaw(
        'rail',
        'rail-1',
        JSON.stringify({
          recordVersion: 1,
          kind: 'rail',
          id: 'rail-1',
          rail: { ...serialized, steps: [{ ...serialized.steps[0], status: 'lost' }] },
        }),
      );
      expect(await storage.rails.load('rail-1')).toBeUndefined();
      expect(await storage.rails.load('rail-2')).toStrictEqual(railOf('rail-2'));
      expect(reports).toMatchObject([{ kind: 'rail', reason: 'invalid-record' }]);
      expect(reports[0].detail).toContain('steps[0].status');
    });

    it('migrates version-0 records: bare episode and rail documents load as they were', async () => {
      const { storage, writeRaw, reports } = await open(harness);
      await storage.episodes.put([loader]);
      await storage.rails.save(railOf('rail-1', 'Before'));
      await writeRaw('episode', loader.id, JSON.stringify(loader));
      await writeRaw('rail', 'rail-1', JSON.stringify(serializeTaskRail(railOf('rail-1'))));
      expect(await storage.episodes.get(loader.id)).toEqual(loader);
      expect(await storage.episodes.list()).toEqual([loader]);
      expect(await storage.rails.load('rail-1')).toStrictEqual(railOf('rail-1'));
      expect(reports).toEqual([]);
    });
  });
}
