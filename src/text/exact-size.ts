/**
 * The items in an array of their own size. An array grown by `push` keeps room for at least 17
 * items whatever it holds (about 150 bytes), and caches keep one such array per line, call or
 * message: the copy holds only its items.
 */
export function exactSize<T>(items: T[]): T[] {
  return items.length ? items.slice() : items;
}
