// Synthetic sessions for the worker bench (the scale bench's generator), and the HTTP calls that
// grow them on the endpoint.
import type { ProviderMessage } from '../../src/index.ts';
import { sessionOpening, syntheticTurn } from '../../test/helpers/workloads/synthetic-session.ts';

/** Exactly `length` messages: the opening, then whole turns (the last one cut when it must be). */
export function syntheticHistory(length: number, seed: number): ProviderMessage[] {
  const messages: ProviderMessage[] = [...sessionOpening()];
  for (let turn = 0; messages.length < length; turn++) messages.push(...syntheticTurn(turn, seed));
  return messages.slice(0, length);
}

/** The messages that follow a history of `length` from the same generator. */
export function continuation(length: number, turns: number, seed: number): ProviderMessage[] {
  return syntheticHistory(length + turns * 3, seed).slice(length);
}

export interface Endpoint {
  readonly url: string;
  readonly token: string;
}

export async function post(endpoint: Endpoint, path: string, body?: unknown): Promise<Response> {
  return fetch(`${endpoint.url}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${endpoint.token}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/** Drops what the session's object holds in memory (the bench hook); refuses to go on if it did not. */
export async function forget(endpoint: Endpoint, id: string): Promise<void> {
  const response = await post(endpoint, `/v1/sessions/${id}/forget`);
  if (response.status !== 204) throw new Error(`forgetting ${id}: ${response.status} ${await response.text()}`);
}

/** Batches that stay well under the 8 MB body limit. */
const LOAD_BATCH_MESSAGES = 500;

/** Creates a session holding `history`, appending in batches; returns its digest. */
export async function loadSession(
  endpoint: Endpoint,
  id: string,
  history: readonly ProviderMessage[],
  options: Record<string, unknown>,
): Promise<string> {
  let digest = '';
  for (let start = 0; start < history.length; start += LOAD_BATCH_MESSAGES) {
    const response = await post(endpoint, `/v1/sessions/${id}/prepare`, {
      append: history.slice(start, start + LOAD_BATCH_MESSAGES),
      ...(start === 0 ? { options } : { prefixDigest: digest }),
    });
    if (!response.ok) throw new Error(`loading ${id}: ${response.status} ${await response.text()}`);
    digest = ((await response.json()) as { digest: string }).digest;
  }
  return digest;
}
