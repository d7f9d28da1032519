/**
 * `warpfold/storage/durable-object`: episodes, sessions and task rails in a Durable Object's
 * SQLite-backed storage. Use it from inside the DO class:
 *
 *   export class Agent extends DurableObject {
 *     store = createDurableObjectStore(this.ctx.storage);
 *   }
 *
 * Every driver operation runs in one `transactionSync`, so it is atomic, and a DO runs one instance
 * per id, so a session's optimistic check and write cannot interleave with another's. Tables are
 * named `warpfold_*` and created on first use; older layouts are upgraded in place.
 */
import { createStorage } from './create-storage.ts';
import { durableObjectDriver, type DurableObjectSqlStorage } from './drivers/durable-object.ts';
import type { StorageOptions, WarpfoldStorage } from './storage-types.ts';

export {
  DURABLE_OBJECT_SCHEMA_VERSION,
  durableObjectDriver,
  type DurableObjectSqlStorage,
} from './drivers/durable-object.ts';

export function createDurableObjectStore(storage: DurableObjectSqlStorage, options?: StorageOptions): WarpfoldStorage {
  return createStorage(durableObjectDriver(storage), options);
}
