// Times one storage backend on the bench workload. Pure: runs the same in Node, Chromium and workerd.
// Each phase is its own function so a runtime whose clock does not move during compute (workerd)
// can run one phase per request and be timed from outside.
import type { Episode } from '../../src/episodes/types.ts';
import type { JsonValue, WarpfoldStorage } from '../../src/storage/index.ts';
import { STORAGE_BENCH_BATCH, STORAGE_BENCH_RECALL_LIMIT, STORAGE_BENCH_SESSION_ROUNDS } from './settings.ts';

export interface StorageMeasurement {
  readonly episodes: number;
  /** Episodes written per second through `episodes.put`, in batches of `STORAGE_BENCH_BATCH`. */
  readonly recordPerSecond: number;
  /** `findByPaths([path], { limit })` calls per second over the recorded episodes. */
  readonly recallPerSecond: number;
  /** Mean episodes returned per recall: the work is comparable only when it matches across backends. */
  readonly recallHits: number;
  readonly session: SessionMeasurement;
  readonly sessionWithHistory: SessionMeasurement;
}

export interface SessionMeasurement {
  readonly bytes: number;
  /** Mean milliseconds of one `sessions.save` with `expectedVersion`. */
  readonly saveMilliseconds: number;
  /** Mean milliseconds of one `sessions.load`. */
  readonly loadMilliseconds: number;
}

export interface StorageWorkload {
  readonly episodes: readonly Episode[];
  readonly recallPaths: readonly string[];
  readonly state: JsonValue;
  readonly stateWithHistory: JsonValue;
}

export type StoragePhase =
  | { readonly phase: 'record'; readonly episodes: readonly Episode[] }
  | { readonly phase: 'recall'; readonly paths: readonly string[] }
  | { readonly phase: 'save'; readonly id: string; readonly state: JsonValue }
  | { readonly phase: 'load'; readonly id: string };

/** Runs one phase; returns what it counted (episodes found for recall, versions for saves). */
export async function runStoragePhase(storage: WarpfoldStorage, work: StoragePhase): Promise<number> {
  switch (work.phase) {
    case 'record':
      for (let start = 0; start < work.episodes.length; start += STORAGE_BENCH_BATCH)
        await storage.episodes.put(work.episodes.slice(start, start + STORAGE_BENCH_BATCH));
      return work.episodes.length;
    case 'recall': {
      let hits = 0;
      for (const path of work.paths)
        hits += (await storage.episodes.findByPaths([path], { limit: STORAGE_BENCH_RECALL_LIMIT })).length;
      return hits;
    }
    case 'save': {
      let version = (await storage.sessions.load(work.id))?.version ?? 0;
      for (let round = 0; round < STORAGE_BENCH_SESSION_ROUNDS; round++)
        version = (await storage.sessions.save(work.id, work.state, { expectedVersion: version })).version;
      return version;
    }
    case 'load': {
      let version = 0;
      for (let round = 0; round < STORAGE_BENCH_SESSION_ROUNDS; round++)
        version = (await storage.sessions.load(work.id))?.version ?? -1;
      if (version !== STORAGE_BENCH_SESSION_ROUNDS)
        throw new Error(`session ${work.id} loaded at version ${version}, expected ${STORAGE_BENCH_SESSION_ROUNDS}`);
      return version;
    }
  }
}

/** Wall-clock seconds of each phase, however they were taken, turned into the reported figures. */
export function summarize(
  workload: StorageWorkload,
  seconds: { record: number; recall: number; save: number; load: number; saveHistory: number; loadHistory: number },
  hits: number,
): StorageMeasurement {
  const bytes = (value: JsonValue) => new TextEncoder().encode(JSON.stringify(value)).length;
  const perRound = (phaseSeconds: number) => Number(((phaseSeconds * 1000) / STORAGE_BENCH_SESSION_ROUNDS).toFixed(3));
  return {
    episodes: workload.episodes.length,
    recordPerSecond: Math.round(workload.episodes.length / seconds.record),
    recallPerSecond: Math.round(workload.recallPaths.length / seconds.recall),
    recallHits: Number((hits / workload.recallPaths.length).toFixed(2)),
    session: {
      bytes: bytes(workload.state),
      saveMilliseconds: perRound(seconds.save),
      loadMilliseconds: perRound(seconds.load),
    },
    sessionWithHistory: {
      bytes: bytes(workload.stateWithHistory),
      saveMilliseconds: perRound(seconds.saveHistory),
      loadMilliseconds: perRound(seconds.loadHistory),
    },
  };
}

/** Runs every phase with `timePhase` taking the seconds of each (in-process timing by default). */
export async function measureStorage(
  workload: StorageWorkload,
  timePhase: (work: StoragePhase) => Promise<{ seconds: number; count: number }>,
): Promise<StorageMeasurement> {
  const record = await timePhase({ phase: 'record', episodes: workload.episodes });
  const recall = await timePhase({ phase: 'recall', paths: workload.recallPaths });
  const save = await timePhase({ phase: 'save', id: 'bench-state', state: workload.state });
  const load = await timePhase({ phase: 'load', id: 'bench-state' });
  const saveHistory = await timePhase({ phase: 'save', id: 'bench-state-history', state: workload.stateWithHistory });
  const loadHistory = await timePhase({ phase: 'load', id: 'bench-state-history' });
  return summarize(
    workload,
    {
      record: record.seconds,
      recall: recall.seconds,
      save: save.seconds,
      load: load.seconds,
      saveHistory: saveHistory.seconds,
      loadHistory: loadHistory.seconds,
    },
    recall.count,
  );
}

/** Times phases in this process (Node, Chromium): its clock moves during compute. */
export function inProcess(
  storage: WarpfoldStorage,
): (work: StoragePhase) => Promise<{ seconds: number; count: number }> {
  return async (work) => {
    const started = performance.now();
    const count = await runStoragePhase(storage, work);
    return { seconds: (performance.now() - started) / 1000, count };
  };
}
