import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Without a collection before each run, the heap left by earlier runs (the replay, another
// strategy) would be charged to the next one. --expose-gc can be switched on at runtime.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (() => void) | undefined;

/** Heap in use after a full collection: the baseline a run's peak is measured from. */
export function settledHeapBytes(): number {
  // entries of weak maps whose keys just died (an earlier run's caches) go only on a later pass
  collect?.();
  collect?.();
  return process.memoryUsage().heapUsed;
}
