import { ApiError } from './api-error.ts';
import { tokenProblem } from './token-strength.ts';

/** What one token may do: act for its tenant, and write unless it is read-only. */
export interface TokenGrant {
  readonly tenant: string;
  readonly readOnly: boolean;
  /** The operator's name for the token, logged instead of any part of it. */
  readonly name?: string;
}

export interface AuthenticatedCaller extends TokenGrant {
  /**
   * What the logs call the token: its configured name, else an HMAC of it under
   * WARPFOLD_FINGERPRINT_KEY, else nothing (the tenant alone is logged).
   */
  readonly tokenLabel?: string;
}

export interface TokenSecrets {
  /** One token for a single tenant, `default`. */
  readonly WARPFOLD_TOKEN?: string;
  /** JSON: `{ "<token>": "<tenant>" | { "tenant": "<tenant>", "readOnly"?: true, "name"?: "<name>" } }`. */
  readonly WARPFOLD_TOKENS?: string;
  /** A server secret: token fingerprints in the logs are HMAC-SHA-256 under it. */
  readonly WARPFOLD_FINGERPRINT_KEY?: string;
}

interface Credential {
  readonly hash: Uint8Array;
  readonly grant: TokenGrant;
}

/**
 * The token configuration cannot be used. Its message is for the operator's log only: callers
 * get a generic 503, so nothing of the secrets' shape leaks.
 */
export class TokenConfigurationError extends Error {
  override readonly name = 'TokenConfigurationError';
}

export const SINGLE_TENANT = 'default';
const TENANT_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const NAME_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;
const encoder = new TextEncoder();

const sha256 = async (text: string): Promise<Uint8Array> =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

function misconfigured(message: string): TokenConfigurationError {
  return new TokenConfigurationError(`token configuration is invalid: ${message}`);
}

function readGrant(token: string, value: unknown, position: string): TokenGrant {
  const grant = typeof value === 'string' ? { tenant: value, readOnly: false } : value;
  if (grant === null || typeof grant !== 'object')
    throw misconfigured('each WARPFOLD_TOKENS value must be a tenant name or { tenant, readOnly, name }');
  const { tenant, readOnly, name } = grant as { tenant?: unknown; readOnly?: unknown; name?: unknown };
  if (typeof tenant !== 'string' || !TENANT_PATTERN.test(tenant))
    throw misconfigured('tenant names are 1–64 letters, digits, ".", "_" or "-"');
  if (readOnly !== undefined && typeof readOnly !== 'boolean') throw misconfigured('readOnly must be a boolean');
  if (name !== undefined && (typeof name !== 'string' || !NAME_PATTERN.test(name)))
    throw misconfigured('token names are 1–64 letters, digits, ".", "_", ":" or "-"');
  const weakness = tokenProblem(token);
  // the position, never the token, says which one
  if (weakness) throw misconfigured(`${position}: ${weakness}`);
  return { tenant, readOnly: readOnly === true, ...(name !== undefined ? { name } : {}) };
}

interface Credentials {
  readonly list: readonly Credential[];
  readonly fingerprintKey: CryptoKey | null;
}

async function readCredentials(secrets: TokenSecrets): Promise<Credentials> {
  const entries: Array<[string, TokenGrant]> = [];
  if (secrets.WARPFOLD_TOKENS !== undefined && secrets.WARPFOLD_TOKENS.trim() !== '') {
    let table: unknown;
    try {
      table = JSON.parse(secrets.WARPFOLD_TOKENS);
    } catch {
      throw misconfigured('WARPFOLD_TOKENS is not JSON');
    }
    if (table === null || typeof table !== 'object' || Array.isArray(table))
      throw misconfigured('WARPFOLD_TOKENS must be a JSON object');
    Object.entries(table).forEach(([token, value], index) =>
      entries.push([token, readGrant(token, value, `WARPFOLD_TOKENS entry ${index + 1}`)]),
    );
  }
  if (secrets.WARPFOLD_TOKEN !== undefined && secrets.WARPFOLD_TOKEN !== '')
    entries.push([secrets.WARPFOLD_TOKEN, readGrant(secrets.WARPFOLD_TOKEN, SINGLE_TENANT, 'WARPFOLD_TOKEN')]);
  if (!entries.length) throw misconfigured('set WARPFOLD_TOKEN or WARPFOLD_TOKENS');
  const keyText = secrets.WARPFOLD_FINGERPRINT_KEY ?? '';
  if (keyText !== '' && tokenProblem(keyText))
    throw misconfigured(`WARPFOLD_FINGERPRINT_KEY: ${tokenProblem(keyText)}`);
  const fingerprintKey =
    keyText === ''
      ? null
      : await crypto.subtle.importKey('raw', encoder.encode(keyText), { name: 'HMAC', hash: 'SHA-256' }, false, [
          'sign',
        ]);
  const list = await Promise.all(entries.map(async ([token, grant]) => ({ hash: await sha256(token), grant })));
  return { list, fingerprintKey };
}

/** Parsed once per distinct secret text: the table is hashed at most once per isolate. */
const credentialCache = new Map<string, Promise<Credentials>>();

function credentialsFor(secrets: TokenSecrets): Promise<Credentials> {
  const key = JSON.stringify([
    secrets.WARPFOLD_TOKEN ?? '',
    secrets.WARPFOLD_TOKENS ?? '',
    secrets.WARPFOLD_FINGERPRINT_KEY ?? '',
  ]);
  let cached = credentialCache.get(key);
  if (!cached) {
    cached = readCredentials(secrets);
    // a configuration error is the same every time: kept, and marked handled until a caller awaits it
    cached.catch(() => undefined);
    credentialCache.set(key, cached);
  }
  return cached;
}

/** The reason the token configuration is unusable, for the operator's log; null when it is usable. */
export async function tokenConfigurationProblem(secrets: TokenSecrets): Promise<string | null> {
  try {
    await credentialsFor(secrets);
    return null;
  } catch (error) {
    if (error instanceof TokenConfigurationError) return error.message;
    throw error;
  }
}

/** Equal-length comparison whose time does not depend on where the bytes differ. */
function timingSafeEqual(left: Uint8Array, right: Uint8Array): boolean {
  const subtle = crypto.subtle as SubtleCrypto & {
    timingSafeEqual?: (a: ArrayBufferView, b: ArrayBufferView) => boolean;
  };
  if (typeof subtle.timingSafeEqual === 'function') return subtle.timingSafeEqual(left, right);
  let difference = left.length ^ right.length;
  for (let i = 0; i < left.length; i++) difference |= left[i] ^ right[i];
  return difference === 0;
}

/** RFC 9110 §11.1: the scheme is case-insensitive; one or more spaces before the token68. */
const BEARER = /^bearer +([\x21-\x7e]+) *$/i;

async function labelOf(grant: TokenGrant, token: string, key: CryptoKey | null): Promise<string | undefined> {
  if (grant.name !== undefined) return grant.name;
  if (key === null) return undefined;
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(token)));
  return `hmac:${hex(signature.subarray(0, 12))}`;
}

/**
 * Checks `Authorization: Bearer <token>`. The presented token is hashed and its hash compared with
 * every configured token's hash in constant time, all of them, so neither the position of a
 * mismatch nor which token matched shows in the timing. Throws TokenConfigurationError when the
 * configuration is unusable, ApiError 401 when the caller has no valid token.
 */
export async function authenticate(
  authorization: string | undefined,
  secrets: TokenSecrets,
): Promise<AuthenticatedCaller> {
  const credentials = await credentialsFor(secrets);
  const match = BEARER.exec(authorization ?? '');
  if (!match)
    throw new ApiError(
      'unauthorized',
      'send Authorization: Bearer <token>',
      {},
      { 'WWW-Authenticate': 'Bearer realm="warpfold"' },
    );
  const caller = await matchToken(match[1], credentials);
  if (!caller)
    throw new ApiError(
      'unauthorized',
      'the bearer token is not valid',
      {},
      { 'WWW-Authenticate': 'Bearer realm="warpfold", error="invalid_token"' },
    );
  return caller;
}

/** The caller a presented token names, compared as `authenticate` does; undefined when none. */
async function matchToken(token: string, credentials: Credentials): Promise<AuthenticatedCaller | undefined> {
  const presented = await sha256(token);
  let found: TokenGrant | undefined;
  for (const credential of credentials.list)
    if (timingSafeEqual(credential.hash, presented) && found === undefined) found = credential.grant;
  if (!found) return undefined;
  const tokenLabel = await labelOf(found, token, credentials.fingerprintKey);
  return { ...found, ...(tokenLabel !== undefined ? { tokenLabel } : {}) };
}

/**
 * Checks the gateway routes' `x-warpfold-token` (the provider's own `x-api-key` and
 * `Authorization` belong to the provider and are never read). Throws TokenConfigurationError when
 * the configuration is unusable, ApiError 401 when the token is missing or not valid.
 */
export async function authenticateGatewayToken(
  token: string | undefined,
  secrets: TokenSecrets,
): Promise<AuthenticatedCaller> {
  const credentials = await credentialsFor(secrets);
  const presented = token?.trim() ?? '';
  if (presented === '') throw new ApiError('unauthorized', 'send the gateway token in x-warpfold-token');
  const caller = await matchToken(presented, credentials);
  if (!caller) throw new ApiError('unauthorized', 'the x-warpfold-token is not valid');
  return caller;
}
