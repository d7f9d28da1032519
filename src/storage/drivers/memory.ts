import type { DriverEntry, StorageDriver } from '../storage-driver.ts';

/**
 * Text values in a Map. Every operation is synchronous under its promise, so an update or a batch
 * is one step that nothing can come between. Pass a Map to share it between storages (like
 * reopening a database) or to look at what is stored.
 */
export function memoryDriver(records: Map<string, string> = new Map()): StorageDriver {
  return {
    name: 'memory',
    async get(key) {
      return records.get(key);
    },
    async list(prefix) {
      const entries: DriverEntry[] = [];
      for (const [key, value] of records) if (key.startsWith(prefix)) entries.push({ key, value });
      return entries;
    },
    async update(key, change) {
      const next = change(records.get(key));
      if (next === null) records.delete(key);
      else if (next !== undefined) records.set(key, next);
    },
    async batch(writes) {
      for (const { key, value } of writes) {
        if (value === null) records.delete(key);
        else records.set(key, value);
      }
    },
  };
}
