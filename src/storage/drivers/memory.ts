import { prefixUpperBound, type DriverEntry, type StorageDriver } from '../storage-driver.ts';

/** The keys of a Map in code-unit order, shared by every driver over that Map, so a prefix is a binary search away. */
const sortedKeys = new WeakMap<Map<string, string>, string[]>();

/** The first position in `keys` whose key is not below `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keys[middle] < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Text values in a Map. Every operation is synchronous under its promise, so an update or a batch
 * is one step that nothing can come between. Pass a Map to share it between storages (like
 * reopening a database) or to look at what is stored.
 */
export function memoryDriver(records: Map<string, string> = new Map()): StorageDriver {
  const keys = (): string[] => {
    let sorted = sortedKeys.get(records);
    // the Map may have been changed from outside: its size tells when to sort again
    if (sorted === undefined || sorted.length !== records.size)
      sortedKeys.set(records, (sorted = [...records.keys()].sort()));
    return sorted;
  };
  const write = (key: string, value: string | null) => {
    const sorted = keys();
    const at = lowerBound(sorted, key);
    const present = sorted[at] === key;
    if (value === null) {
      if (present) sorted.splice(at, 1);
      records.delete(key);
    } else {
      if (!present) sorted.splice(at, 0, key);
      records.set(key, value);
    }
  };
  return {
    name: 'memory',
    async get(key) {
      return records.get(key);
    },
    async list(prefix) {
      const sorted = keys();
      const upper = prefixUpperBound(prefix);
      const entries: DriverEntry[] = [];
      for (let at = lowerBound(sorted, prefix); at < sorted.length && (upper === undefined || sorted[at] < upper); at++)
        if (sorted[at].startsWith(prefix)) entries.push({ key: sorted[at], value: records.get(sorted[at]) });
      return entries;
    },
    async update(key, change) {
      const next = change(records.get(key));
      if (next !== undefined) write(key, next);
    },
    async batch(writes) {
      for (const { key, value } of writes) write(key, value);
    },
  };
}
