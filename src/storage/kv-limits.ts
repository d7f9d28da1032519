import { KeyTooLongError, ValueTooLargeError } from './storage-errors.ts';

/** Workers KV limits (developers.cloudflare.com/kv/platform/limits): what one value and one key may hold. */
export const KV_MAX_VALUE_BYTES = 25 * 1024 * 1024;
export const KV_MAX_KEY_BYTES = 512;
/** `list()` returns at most this many keys per call; longer listings follow the cursor. */
export const KV_LIST_PAGE_SIZE = 1_000;

const encoder = new TextEncoder();

/** The UTF-8 size of `text` when it is over `limit`, else undefined; short texts (≤ 3 bytes per code unit) skip encoding. */
function bytesOver(text: string, limit: number): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  const bytes = encoder.encode(text).length;
  return bytes > limit ? bytes : undefined;
}

export function checkKey(key: string): string {
  const bytes = bytesOver(key, KV_MAX_KEY_BYTES);
  if (bytes !== undefined) throw new KeyTooLongError(key, bytes, KV_MAX_KEY_BYTES);
  return key;
}

export function fitsKey(key: string): boolean {
  return bytesOver(key, KV_MAX_KEY_BYTES) === undefined;
}

export function checkValue(key: string, text: string): string {
  const bytes = bytesOver(text, KV_MAX_VALUE_BYTES);
  if (bytes !== undefined) throw new ValueTooLargeError(key, bytes, KV_MAX_VALUE_BYTES);
  return text;
}
