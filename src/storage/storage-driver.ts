/**
 * What a backend implements: text values under string keys, and four operations. Everything else
 * (record versions, compare-and-swap saves, corruption reports, id checks, ordering, the path index)
 * lives once in `createStorage`, so every backend behaves alike.
 */

/** A key and, when asked for, its stored text. */
export interface DriverEntry {
  readonly key: string;
  readonly value?: string;
}

/** One step of a batch: `value` is the new text, or `null` to remove the key. */
export interface DriverWrite {
  readonly key: string;
  readonly value: string | null;
}

/**
 * What `update` writes: new text, `null` to remove the key, `undefined` to leave it as it is.
 * A change that throws writes nothing, and `update` rejects with what it threw.
 */
export type DriverChange = (current: string | undefined) => string | null | undefined;

export interface StorageDriver {
  /** Names the backend in error messages, e.g. `indexeddb`. */
  readonly name: string;
  get(key: string): Promise<string | undefined>;
  /** Every key that starts with `prefix`, in any order; with their values when `values` is true. */
  list(prefix: string, options?: { readonly values?: boolean }): Promise<DriverEntry[]>;
  /**
   * Reads the key, runs `change` synchronously on what is stored, and writes its answer, as one step:
   * no other update or batch of this storage comes between the read and the write.
   */
  update(key: string, change: DriverChange): Promise<void>;
  /**
   * Applies the writes in order: of several writes to one key, the last one stays. Backends with
   * transactions (memory, IndexedDB, Durable Object) apply them all or none; KV has none, and writes
   * each run of distinct keys at once, so a reader may see some of them before the others.
   */
  batch(writes: readonly DriverWrite[]): Promise<void>;
}

/**
 * The least string above every key that starts with `prefix`, for a key-range scan; undefined when
 * there is none this simple (an empty prefix, or one ending in a surrogate or U+FFFF), and the
 * caller scans from `prefix` on and filters. Code-unit order and UTF-8 byte order agree here.
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const last = prefix.charCodeAt(prefix.length - 1);
  if (!(last >= 0) || (last >= 0xd800 && last <= 0xdfff) || last === 0xffff) return undefined;
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}
