import { fnv1a } from '../text/hash.ts';

/**
 * `ep-` and 16 hex digits from two independent 32-bit FNV-1a passes over the session id and the
 * span start. Start only: see the model notes in `types.ts`.
 */
export function episodeId(sessionId: string, startIndex: number): string {
  const key = `${sessionId}\u0000${startIndex}`;
  const hex = (value: number) => value.toString(16).padStart(8, '0');
  return `ep-${hex(fnv1a(key))}${hex(fnv1a(key, 0x9747b28c))}`;
}
