/** Limits and switches read from the Worker's vars (wrangler.toml `[vars]`, `--var`, or the dashboard). */
export interface WorkerConfig {
  readonly maxBodyBytes: number;
  readonly rateLimitRequests: number;
  readonly rateLimitWindowMs: number;
  /** Origins allowed for browser clients; `'*'` allows any; empty allows none. */
  readonly corsOrigins: readonly string[];
}

/** 8 MB: a 1,000-turn agent history with large tool outputs fits; a runaway upload does not. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Ten requests a second per token on average: an agent loop calls prepare once per model call. */
export const DEFAULT_RATE_LIMIT_REQUESTS = 600;
export const DEFAULT_RATE_LIMIT_WINDOW_SECONDS = 60;

export interface WorkerVars {
  readonly MAX_BODY_BYTES?: string;
  readonly RATE_LIMIT_REQUESTS?: string;
  readonly RATE_LIMIT_WINDOW_SECONDS?: string;
  readonly CORS_ORIGINS?: string;
}

function positiveInteger(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) throw new TypeError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return parsed;
}

export function readWorkerConfig(vars: WorkerVars): WorkerConfig {
  return {
    maxBodyBytes: positiveInteger(vars.MAX_BODY_BYTES, DEFAULT_MAX_BODY_BYTES, 'MAX_BODY_BYTES'),
    rateLimitRequests: positiveInteger(vars.RATE_LIMIT_REQUESTS, DEFAULT_RATE_LIMIT_REQUESTS, 'RATE_LIMIT_REQUESTS'),
    rateLimitWindowMs: 1000 * positiveInteger(vars.RATE_LIMIT_WINDOW_SECONDS, DEFAULT_RATE_LIMIT_WINDOW_SECONDS, 'RATE_LIMIT_WINDOW_SECONDS'),
    corsOrigins: (vars.CORS_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ''),
  };
}
