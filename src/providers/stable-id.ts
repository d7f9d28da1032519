import { FoldOptionsError } from '../errors.ts';
import { fnv1a } from '../text/hash.ts';

/** 32 hex digits from a text: four FNV-1a passes with different seeds. Deterministic in every runtime. */
function hex32(text: string): string {
  return [0x811c9dc5, 0x01000193, 0x5bd1e995, 0x27d4eb2f]
    .map((seed) => fnv1a(text, seed).toString(16).padStart(8, '0'))
    .join('');
}

/** A version-4-shaped uuid derived from its parts, so a rebuilt file is byte-identical for identical input. */
export function stableUuid(...parts: readonly (string | number)[]): string {
  const hex = hex32(parts.map((part) => `${String(part).length}:${part}`).join('|'));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16], 16) % 4]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A short id (base 36) derived from its parts. */
export function stableId(...parts: readonly (string | number)[]): string {
  return hex32(parts.join('|')).slice(0, 16);
}

/** ISO time from an injected clock: time enters the packs only through `now`. */
export function isoTime(now: () => number): string {
  const value = now();
  if (!Number.isFinite(value))
    throw new FoldOptionsError('now', `now() must return epoch milliseconds, it returned ${String(value)}`);
  return new Date(value).toISOString();
}
