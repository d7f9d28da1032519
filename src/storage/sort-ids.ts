/**
 * Id listings in ascending UTF-16 code-unit order. SQLite sorts text by UTF-8 bytes, IndexedDB and
 * JavaScript by code units, KV by bytes: sorting here makes every backend list the same ids alike.
 */
export function sortIds(ids: string[]): string[] {
  return ids.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
}
