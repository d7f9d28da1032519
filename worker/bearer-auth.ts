import { ApiError } from './api-error.ts';

/** What one token may do: act for its tenant, and write unless it is read-only. */
export interface TokenGrant {
  readonly tenant: string;
  readonly readOnly: boolean;
}

export interface AuthenticatedCaller extends TokenGrant {
  /** A hash of the token, safe to log and to name the caller's rate limiter by. */
  readonly tokenId: string;
}

export interface TokenSecrets {
  /** One token for a single tenant, `default`. */
  readonly WARPFOLD_TOKEN?: string;
  /** JSON: `{ "<token>": "<tenant>" | { "tenant": "<tenant>", "readOnly": true } }`. */
  readonly WARPFOLD_TOKENS?: string;
}

interface Credential {
  readonly hash: Uint8Array;
  readonly grant: TokenGrant;
}

export const SINGLE_TENANT = 'default';
const TENANT_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const encoder = new TextEncoder();

const sha256 = async (text: string): Promise<Uint8Array> => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

function misconfigured(message: string): ApiError {
  return new ApiError('misconfigured', `token configuration is invalid: ${message}`);
}

function readGrant(token: string, value: unknown): TokenGrant {
  const grant = typeof value === 'string' ? { tenant: value, readOnly: false } : value;
  if (grant === null || typeof grant !== 'object') throw misconfigured('each WARPFOLD_TOKENS value must be a tenant name or { tenant, readOnly }');
  const { tenant, readOnly } = grant as { tenant?: unknown; readOnly?: unknown };
  if (typeof tenant !== 'string' || !TENANT_PATTERN.test(tenant)) throw misconfigured('tenant names are 1–64 letters, digits, ".", "_" or "-"');
  if (readOnly !== undefined && typeof readOnly !== 'boolean') throw misconfigured('readOnly must be a boolean');
  if (token.length < 16) throw misconfigured('tokens must be at least 16 characters');
  return { tenant, readOnly: readOnly === true };
}

async function readCredentials(secrets: TokenSecrets): Promise<Credential[]> {
  const entries: Array<[string, TokenGrant]> = [];
  if (secrets.WARPFOLD_TOKENS !== undefined && secrets.WARPFOLD_TOKENS.trim() !== '') {
    let table: unknown;
    try {
      table = JSON.parse(secrets.WARPFOLD_TOKENS);
    } catch {
      throw misconfigured('WARPFOLD_TOKENS is not JSON');
    }
    if (table === null || typeof table !== 'object' || Array.isArray(table)) throw misconfigured('WARPFOLD_TOKENS must be a JSON object');
    for (const [token, value] of Object.entries(table)) entries.push([token, readGrant(token, value)]);
  }
  if (secrets.WARPFOLD_TOKEN !== undefined && secrets.WARPFOLD_TOKEN !== '') entries.push([secrets.WARPFOLD_TOKEN, readGrant(secrets.WARPFOLD_TOKEN, SINGLE_TENANT)]);
  return Promise.all(entries.map(async ([token, grant]) => ({ hash: await sha256(token), grant })));
}

/** Parsed once per distinct secret text: the table is hashed at most once per isolate. */
const credentialCache = new Map<string, Promise<Credential[]>>();

function credentialsFor(secrets: TokenSecrets): Promise<Credential[]> {
  const key = JSON.stringify([secrets.WARPFOLD_TOKEN ?? '', secrets.WARPFOLD_TOKENS ?? '']);
  let cached = credentialCache.get(key);
  if (!cached) {
    cached = readCredentials(secrets);
    cached.catch(() => credentialCache.delete(key));
    credentialCache.set(key, cached);
  }
  return cached;
}

/** Equal-length comparison whose time does not depend on where the bytes differ. */
function timingSafeEqual(left: Uint8Array, right: Uint8Array): boolean {
  const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: (a: ArrayBufferView, b: ArrayBufferView) => boolean };
  if (typeof subtle.timingSafeEqual === 'function') return subtle.timingSafeEqual(left, right);
  let difference = left.length ^ right.length;
  for (let i = 0; i < left.length; i++) difference |= left[i] ^ right[i];
  return difference === 0;
}

/**
 * Checks `Authorization: Bearer <token>`. The presented token is hashed and its hash compared with
 * every configured token's hash in constant time, all of them, so neither the position of a
 * mismatch nor which token matched shows in the timing.
 */
export async function authenticate(authorization: string | undefined, secrets: TokenSecrets): Promise<AuthenticatedCaller> {
  const credentials = await credentialsFor(secrets);
  if (!credentials.length) throw misconfigured('set WARPFOLD_TOKEN or WARPFOLD_TOKENS');
  const match = /^Bearer ([\x21-\x7e]+)$/.exec(authorization ?? '');
  if (!match) throw new ApiError('unauthorized', 'send Authorization: Bearer <token>', {}, { 'WWW-Authenticate': 'Bearer realm="warpfold"' });
  const presented = await sha256(match[1]);
  let found: TokenGrant | undefined;
  for (const credential of credentials) if (timingSafeEqual(credential.hash, presented) && found === undefined) found = credential.grant;
  if (!found) throw new ApiError('unauthorized', 'the bearer token is not valid', {}, { 'WWW-Authenticate': 'Bearer realm="warpfold", error="invalid_token"' });
  return { ...found, tokenId: hex(presented.subarray(0, 12)) };
}
