import { checkKey, checkValue, KV_LIST_PAGE_SIZE } from '../kv-limits.ts';
import type { DriverEntry, StorageDriver } from '../storage-driver.ts';

/** The part of a `KVNamespace` binding this driver uses. */
export interface KvNamespaceLike {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { metadata?: unknown }): Promise<void>;
  delete(key: string): Promise<void>;
  list(options: {
    prefix: string;
    cursor?: string | null;
    limit?: number;
  }): Promise<{ keys: ReadonlyArray<{ name: string; metadata?: unknown }>; list_complete: boolean; cursor?: string }>;
}

/**
 * KV holds at most 1,024 bytes of metadata per key: a short value rides along, so a listing needs no
 * reads. Only printable ASCII does, since metadata travels in an HTTP header.
 */
const INLINE_VALUE = /^[\x20-\x7e]{0,960}$/;

function inlineValue(metadata: unknown): string | undefined {
  const value = (metadata as { v?: unknown } | null | undefined)?.v;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Keys in a Workers KV namespace, under an optional `prefix`. A key over 512 bytes or a value over
 * 25 MiB is refused before anything is written; listings follow the cursor 1,000 keys at a time.
 * KV has no transactions and no compare-and-swap: `update` runs one at a time per key within this
 * driver (one isolate); a batch is applied in order, each run of writes to distinct keys at once
 * (so of several writes to one key the last wins).
 */
export function kvDriver(namespace: KvNamespaceLike, prefix = ''): StorageDriver {
  const get = async (key: string): Promise<string | undefined> =>
    (await namespace.get(checkKey(prefix + key))) ?? undefined;
  const put = (key: string, value: string) =>
    namespace.put(key, value, INLINE_VALUE.test(value) ? { metadata: { v: value } } : undefined);
  const pending = new Map<string, Promise<unknown>>();
  const oneAtATime = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const next = (pending.get(key) ?? Promise.resolve()).then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    pending.set(key, settled);
    void settled.then(() => pending.get(key) === settled && pending.delete(key));
    return next;
  };
  return {
    name: 'kv',
    get,
    async list(keyPrefix, options) {
      const entries: DriverEntry[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await namespace.list({
          prefix: checkKey(prefix + keyPrefix),
          limit: KV_LIST_PAGE_SIZE,
          ...(cursor === undefined ? {} : { cursor }),
        });
        for (const { name, metadata } of page.keys)
          entries.push({ key: name.slice(prefix.length), value: inlineValue(metadata) });
        if (page.list_complete || !page.cursor) break;
        cursor = page.cursor;
      }
      if (!options?.values) return entries.map(({ key }) => ({ key }));
      return Promise.all(
        entries.map(async (entry) =>
          entry.value === undefined ? { key: entry.key, value: await get(entry.key) } : entry,
        ),
      ).then((all) => all.filter((entry) => entry.value !== undefined));
    },
    update(key, change) {
      const full = checkKey(prefix + key);
      return oneAtATime(full, async () => {
        const next = change(await get(key));
        if (next === null) await namespace.delete(full);
        else if (next !== undefined) await put(full, checkValue(full, next));
      });
    },
    async batch(writes) {
      // every key and value is checked before the first write
      const checked = writes.map(({ key, value }) => {
        const full = checkKey(prefix + key);
        return { full, value: value === null ? null : checkValue(full, value) };
      });
      // in order, a run of writes to different keys at a time: KV readers elsewhere see writes in any order anyway
      for (let start = 0; start < checked.length; ) {
        const keys = new Set<string>();
        let end = start;
        while (end < checked.length && !keys.has(checked[end].full)) keys.add(checked[end++].full);
        await Promise.all(
          checked
            .slice(start, end)
            .map(({ full, value }) => (value === null ? namespace.delete(full) : put(full, value))),
        );
        start = end;
      }
    },
  };
}
