/**
 * The digest of a raw history, chained message by message so that appending hashes only the new
 * messages: `d0 = sha256("warpfold/history/v1")`, `d(n+1) = sha256(d(n) + "\n" + JSON.stringify(message n))`,
 * each written `sha256:<64 hex>`. A client keeps it the same way (Web Crypto is enough) and sends it
 * as `prefixDigest`; the server answers 409 when it holds something else.
 */
export const HISTORY_DIGEST_SEED = 'warpfold/history/v1';

const encoder = new TextEncoder();

async function sha256(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  let hex = 'sha256:';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

export function emptyHistoryDigest(): Promise<string> {
  return sha256(HISTORY_DIGEST_SEED);
}

export async function extendHistoryDigest(digest: string, messages: readonly unknown[]): Promise<string> {
  let next = digest;
  for (const message of messages) next = await sha256(`${next}\n${JSON.stringify(message)}`);
  return next;
}

export async function historyDigest(messages: readonly unknown[]): Promise<string> {
  return extendHistoryDigest(await emptyHistoryDigest(), messages);
}
