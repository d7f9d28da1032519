/**
 * `text` in a string of its own. A line split or sliced from a long text is, in V8, a view that
 * keeps the whole text alive: a cache that keeps lines of band texts as keys would keep every
 * attempt's band text. Copying through JSON gives back the same characters in a fresh string.
 */
export function detachedCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
