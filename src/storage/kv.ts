/**
 * `warpfold/storage/kv`: episodes, sessions and task rails in a Workers KV namespace.
 *
 * Layout under the optional `prefix`: the keys of `createStorage` (`episode/<id>`, `session/<id>`,
 * `rail/<id>`, the path index under `episode-path/`, `meta/schema`). A value of under 1 KB also rides
 * in the key's metadata, so recall ranks candidates from one `list()` and reads only the records it
 * returns. A record is always one value, so it is never half-written.
 *
 * Limits honoured: a value over 25 MiB is refused with `ValueTooLargeError` and a key over 512 bytes
 * with `KeyTooLongError`, before anything is written; listings follow `list()` cursors 1,000 keys at
 * a time.
 *
 * Eventual consistency, and what it means for recall. KV serves reads from caches near the reader and
 * a write takes up to about 60 seconds to reach other locations. So, from another location (or after
 * a cached read of the same key):
 * - `findByPaths` and `list` may miss an episode recorded moments ago, or return the version before
 *   its latest supersession: recall can show a verdict that a newer episode has already made stale;
 * - a deleted episode may still be listed for a while;
 * - `sessions.load` may return an older version of a session.
 * KV has no compare-and-swap. `expectedVersion` is checked and the write made one at a time per id
 * *within this store instance* (one isolate), so concurrent saves there have exactly one winner;
 * writers in different isolates or locations can both succeed, the last write winning. Keep a
 * session that several writers share in a Durable Object (`warpfold/storage/durable-object`); KV
 * suits episodes and rails read far more often than written, and one writer per session.
 *
 * Cost: `findByPaths` makes one `list()` per 1,000 index keys of each basename, then one `get` per
 * episode it returns; `list` reads every record (one `get` each). A Worker invocation may make only so
 * many KV operations (1,000 on the paid plan at the time of writing), so listing thousands of
 * episodes in one request is better served by the Durable Object store.
 */
import { createStorage } from './create-storage.ts';
import { kvDriver, type KvNamespaceLike } from './drivers/kv.ts';
import type { StorageOptions, WarpfoldStorage } from './storage-types.ts';

export { KV_LIST_PAGE_SIZE, KV_MAX_KEY_BYTES, KV_MAX_VALUE_BYTES } from './kv-limits.ts';
export { kvDriver, type KvNamespaceLike } from './drivers/kv.ts';

export interface KvStoreOptions extends StorageOptions {
  /** Put before every key, so several stores can share one namespace (e.g. `app-1/`). */
  readonly prefix?: string;
}

export function createKvStore(namespace: KvNamespaceLike, options: KvStoreOptions = {}): WarpfoldStorage {
  return createStorage(kvDriver(namespace, options.prefix ?? ''), options);
}
