/** FNV-1a over UTF-16 code units: small, pure and identical in every runtime. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Folds a sequence of hashes into one, order-sensitive. */
export function combineHashes(previous: number, next: number): number {
  return fnv1a(next.toString(36), previous);
}
