/**
 * `warpfold/storage/memory`: the reference backend. Records live as
 * JSON text in one Map, exactly as the other backends hold them, so it copies on the way in and
 * out, reports corrupt records and checks versions the same way: every store is `createStorage`
 * over a driver. Good for tests, Node scripts and a tab that needs no persistence.
 */
import { createStorage } from './create-storage.ts';
import { memoryDriver } from './drivers/memory.ts';
import type { StorageOptions, WarpfoldStorage } from './storage-types.ts';

export { memoryDriver } from './drivers/memory.ts';

export interface MemoryStoreOptions extends StorageOptions {
  /**
   * The raw records, keyed `episode/<id>`, `session/<id>`, `rail/<id>` and the path index keys.
   * Pass a Map to share one storage between store instances (like reopening a database) or to
   * inspect what is stored.
   */
  readonly records?: Map<string, string>;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): WarpfoldStorage {
  return createStorage(memoryDriver(options.records), options);
}
