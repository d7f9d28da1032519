import { BudgetInputError, resolveContextBudget } from '../src/budget/index.ts';
import { DEFAULT_UPSTREAMS } from '../src/gateway/index.ts';

/** Limits and switches read from the Worker's vars (wrangler.toml `[vars]`, `--var`, or the dashboard). */
export interface WorkerConfig {
  readonly maxBodyBytes: number;
  /** Requests per window for one tenant, however many tokens it has. */
  readonly rateLimitRequests: number;
  /** Requests per window from one client address without a valid token. */
  readonly unauthenticatedRateLimitRequests: number;
  readonly rateLimitWindowMs: number;
  /** Most messages one session may hold. */
  readonly maxSessionMessages: number;
  /** Most bytes of raw message JSON one session may hold. */
  readonly maxSessionBytes: number;
  /** How long a session's live fold (with its raw history) stays in memory after a call; 0: not at all. */
  readonly sessionWarmMs: number;
  /** The model whose window sets the ceiling of a session or fold created without one. */
  readonly defaultBudget: { readonly engine: string; readonly model: string };
  /** Origins allowed for browser clients; `'*'` allows any; empty allows none. */
  readonly corsOrigins: readonly string[];
  /** The gateway routes' providers: `/anthropic`, `/openai`, `/gemini` forward there. */
  readonly upstreams: { readonly anthropic: string; readonly openai: string; readonly gemini: string };
  /** The gateway's ceiling for calls without `x-warpfold-ceiling`; undefined: the request's model decides. */
  readonly gatewayCeilingTokens: number | undefined;
  /** Largest body a gateway route takes (413 with a verdict beyond). */
  readonly gatewayMaxBodyBytes: number;
}

/** 8 MB: a 1,000-turn agent history with large tool outputs fits; a runaway upload does not. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Ten requests a second per tenant on average: an agent loop calls prepare once per model call. */
export const DEFAULT_RATE_LIMIT_REQUESTS = 600;
/** One a second per address for callers without a valid token: enough to fix a typo, not to guess. */
export const DEFAULT_UNAUTHENTICATED_RATE_LIMIT_REQUESTS = 60;
export const DEFAULT_RATE_LIMIT_WINDOW_SECONDS = 60;
/** Half again the 10,000 messages a long agent session reaches. */
export const DEFAULT_MAX_SESSION_MESSAGES = 15_000;
/**
 * 24 MiB of raw JSON: 15,000 messages of 1.6 KB. A warm object holds the parsed history and the
 * fold's own state, about twice the raw JSON, so a session at either limit stays under 64 MB of
 * heap in a 128 MB isolate (bench/results/worker.md).
 */
export const DEFAULT_MAX_SESSION_BYTES = 24 * 1024 * 1024;
/** An agent loop calls again within seconds; an idle session gives its memory back after this. */
export const DEFAULT_SESSION_WARM_SECONDS = 30;
/** GPT-4o's 128K window: among the smaller windows in use, so its ceiling (about 99K tokens) fits most models. */
export const DEFAULT_BUDGET_ENGINE = 'openai';
export const DEFAULT_BUDGET_MODEL = 'gpt-4o';

/**
 * 32 MiB: Anthropic's own limit for a Messages request (OpenAI's and Gemini's are lower or
 * equal), so the gateway refuses nothing the provider would take.
 */
export const DEFAULT_GATEWAY_MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface WorkerVars {
  readonly ANTHROPIC_UPSTREAM?: string;
  readonly OPENAI_UPSTREAM?: string;
  readonly GEMINI_UPSTREAM?: string;
  readonly GATEWAY_CEILING_TOKENS?: string;
  readonly GATEWAY_MAX_BODY_BYTES?: string;
  readonly MAX_BODY_BYTES?: string;
  readonly RATE_LIMIT_REQUESTS?: string;
  readonly UNAUTHENTICATED_RATE_LIMIT_REQUESTS?: string;
  readonly RATE_LIMIT_WINDOW_SECONDS?: string;
  readonly MAX_SESSION_MESSAGES?: string;
  readonly MAX_SESSION_BYTES?: string;
  readonly SESSION_WARM_SECONDS?: string;
  readonly DEFAULT_BUDGET_ENGINE?: string;
  readonly DEFAULT_BUDGET_MODEL?: string;
  readonly CORS_ORIGINS?: string;
}

function positiveInteger(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0)
    throw new TypeError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return parsed;
}

function nonNegativeInteger(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0)
    throw new TypeError(`${name} must be an integer of 0 or more, got ${JSON.stringify(value)}`);
  return parsed;
}

const text = (value: string | undefined, fallback: string): string =>
  value === undefined || value.trim() === '' ? fallback : value.trim();

function readDefaultBudget(vars: WorkerVars): WorkerConfig['defaultBudget'] {
  const budget = {
    engine: text(vars.DEFAULT_BUDGET_ENGINE, DEFAULT_BUDGET_ENGINE),
    model: text(vars.DEFAULT_BUDGET_MODEL, DEFAULT_BUDGET_MODEL),
  };
  try {
    resolveContextBudget(budget);
  } catch (error) {
    if (error instanceof BudgetInputError)
      throw new TypeError(`DEFAULT_BUDGET_ENGINE / DEFAULT_BUDGET_MODEL: ${error.message}`);
    throw error;
  }
  return budget;
}

function upstream(value: string | undefined, fallback: string, name: string): string {
  const url = text(value, fallback);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`${name} must be a URL, got ${JSON.stringify(value)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new TypeError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
  return url;
}

export function readWorkerConfig(vars: WorkerVars): WorkerConfig {
  return {
    maxBodyBytes: positiveInteger(vars.MAX_BODY_BYTES, DEFAULT_MAX_BODY_BYTES, 'MAX_BODY_BYTES'),
    rateLimitRequests: positiveInteger(vars.RATE_LIMIT_REQUESTS, DEFAULT_RATE_LIMIT_REQUESTS, 'RATE_LIMIT_REQUESTS'),
    unauthenticatedRateLimitRequests: positiveInteger(
      vars.UNAUTHENTICATED_RATE_LIMIT_REQUESTS,
      DEFAULT_UNAUTHENTICATED_RATE_LIMIT_REQUESTS,
      'UNAUTHENTICATED_RATE_LIMIT_REQUESTS',
    ),
    rateLimitWindowMs:
      1000 *
      positiveInteger(vars.RATE_LIMIT_WINDOW_SECONDS, DEFAULT_RATE_LIMIT_WINDOW_SECONDS, 'RATE_LIMIT_WINDOW_SECONDS'),
    maxSessionMessages: positiveInteger(
      vars.MAX_SESSION_MESSAGES,
      DEFAULT_MAX_SESSION_MESSAGES,
      'MAX_SESSION_MESSAGES',
    ),
    maxSessionBytes: positiveInteger(vars.MAX_SESSION_BYTES, DEFAULT_MAX_SESSION_BYTES, 'MAX_SESSION_BYTES'),
    sessionWarmMs:
      1000 * nonNegativeInteger(vars.SESSION_WARM_SECONDS, DEFAULT_SESSION_WARM_SECONDS, 'SESSION_WARM_SECONDS'),
    defaultBudget: readDefaultBudget(vars),
    corsOrigins: (vars.CORS_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ''),
    upstreams: {
      anthropic: upstream(vars.ANTHROPIC_UPSTREAM, DEFAULT_UPSTREAMS.anthropic, 'ANTHROPIC_UPSTREAM'),
      openai: upstream(vars.OPENAI_UPSTREAM, DEFAULT_UPSTREAMS.openai, 'OPENAI_UPSTREAM'),
      gemini: upstream(vars.GEMINI_UPSTREAM, DEFAULT_UPSTREAMS.gemini, 'GEMINI_UPSTREAM'),
    },
    gatewayCeilingTokens:
      vars.GATEWAY_CEILING_TOKENS === undefined || vars.GATEWAY_CEILING_TOKENS.trim() === ''
        ? undefined
        : positiveInteger(vars.GATEWAY_CEILING_TOKENS, 0, 'GATEWAY_CEILING_TOKENS'),
    gatewayMaxBodyBytes: positiveInteger(
      vars.GATEWAY_MAX_BODY_BYTES,
      DEFAULT_GATEWAY_MAX_BODY_BYTES,
      'GATEWAY_MAX_BODY_BYTES',
    ),
  };
}
