import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import worker from '../../worker/index.ts';
import session from '../fixtures/worker/msa-ds-chat-dev-pydicom__pydicom-901.json';
import type { ProviderMessage } from '../../src/index.ts';
import type { WorkerBindings } from '../../worker/worker-bindings.ts';

/** A real 124-message OpenAI-format agent session (see test/fixtures/worker/README.md). */
export const realHistory = session.messages as unknown as ProviderMessage[];

type Grant = string | { tenant: string; readOnly?: boolean; name?: string };

/** Every token vitest.config.ts generated for this run for this tenant (read-only ones apart). */
export function tokensFor(tenant: string, readOnly = false): string[] {
  const table = JSON.parse((env as unknown as WorkerBindings).WARPFOLD_TOKENS ?? '{}') as Record<string, Grant>;
  const tokens: string[] = [];
  for (const [token, grant] of Object.entries(table)) {
    const entry =
      typeof grant === 'string'
        ? { tenant: grant, readOnly: false }
        : { tenant: grant.tenant, readOnly: grant.readOnly === true };
    if (entry.tenant === tenant && entry.readOnly === readOnly) tokens.push(token);
  }
  return tokens;
}

/** The first token vitest.config.ts generated for this run for this tenant. */
export function tokenFor(tenant: string, readOnly = false): string {
  const token = tokensFor(tenant, readOnly)[0];
  if (token === undefined) throw new Error(`no test token for ${tenant}`);
  return token;
}

export interface CallOptions {
  readonly token?: string | null;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export function request(method: string, path: string, options: CallOptions = {}): Request {
  const headers: Record<string, string> = {
    ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    ...options.headers,
  };
  const token = options.token === undefined ? tokenFor('tenant-a') : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return new Request(`https://warpfold.test${path}`, {
    method,
    headers,
    ...(options.body !== undefined
      ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
      : {}),
  });
}

/** The same worker with some vars changed, as `wrangler.toml [vars]` or `--var` would set them. */
export async function callWith(vars: Record<string, string>, input: Request): Promise<Response> {
  const context = createExecutionContext();
  const response = await worker.fetch(input, { ...env, ...vars } as never, context);
  await waitOnExecutionContext(context);
  return response;
}

/** One call through the real worker entry (the root wrangler.toml's `main`). */
export function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  return exports.default.fetch(request(method, path, options));
}

export async function json<T = Record<string, any>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

let counter = 0;
/** A session id no other test uses. */
export const freshId = (label: string): string => `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
