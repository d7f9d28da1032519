import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Without a collection before each run, the heap left by earlier runs (the replay, another
// strategy) would be charged to the next one. --expose-gc can be switched on at runtime.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (() => void) | undefined;

/** Collections at most per settled reading, and the fall under which the heap counts as settled. */
const MAX_COLLECTIONS = 8;
const SETTLED_FALL = 0.005;

/** Heap in use after full collections: the baseline a run's peak is measured from. */
export function settledHeapBytes(): number {
  // entries of weak maps whose keys just died (an earlier run's caches, a dropped session's) go
  // only on a later pass, and a chain of them one pass per link: collect until the heap stops falling
  let heap = process.memoryUsage().heapUsed;
  for (let pass = 0; pass < MAX_COLLECTIONS && collect; pass++) {
    collect();
    const now = process.memoryUsage().heapUsed;
    const fell = heap - now;
    heap = now;
    if (pass > 0 && fell < SETTLED_FALL * now) break;
  }
  return heap;
}

/** The value `settledHeapBytesHolding` keeps reachable while it reads. */
// biome-ignore lint/correctness/noUnusedVariables: written to keep a value reachable while the heap is read
let held: unknown;

/**
 * The settled heap while `value` is surely alive. A local that code no longer reads may count as
 * dead in optimized code and be collected before a later read: a 5,000-turn session read 0.0 MB
 * retained that way, and 23.6 MB once held here.
 */
export function settledHeapBytesHolding(value: unknown): number {
  held = value;
  try {
    return settledHeapBytes();
  } finally {
    held = undefined;
  }
}
