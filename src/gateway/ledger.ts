import type { Verdict } from './verdict.ts';

/** One line of the ledger: what one call was, what went to the provider, what the provider billed. */
export interface LedgerLine {
  /** When the call came in (the injected clock), ISO 8601. */
  readonly time: string;
  /** The gateway's session id; absent for calls that started none. */
  readonly session?: string;
  /** The API the call spoke (`anthropic`, `openai-responses`, `openai-chat`, `gemini`) or `forward`. */
  readonly api: string;
  readonly model?: string;
  readonly verdict: Verdict;
  readonly reason?: string;
  /** The ceiling the call was held to, and where it came from. */
  readonly ceiling?: number;
  readonly ceilingSource?: string;
  /** Tokens of the request as the client sent it (system, tools, messages), counted with warpfold/tokens. */
  readonly rawTokens?: number;
  /** Tokens of the request the gateway sent (in shadow mode: would have sent). */
  readonly forwardedTokens?: number;
  /** The provider's usage for the call: fresh input, cache reads, cache writes, output. */
  readonly inputTokens?: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
  readonly outputTokens?: number;
  /** Set when this call sealed a new prefix: why. */
  readonly epochReason?: string;
  readonly cacheHot?: boolean;
  readonly messagesFolded?: number;
  /** Milliseconds the fold took (the injected clock). */
  readonly foldMs?: number;
  /** The provider's HTTP status. */
  readonly status?: number;
  /** The client went away before the answer ended. */
  readonly aborted?: boolean;
  /** With logBodies only: the request as received and as forwarded. */
  readonly requestBody?: string;
  readonly forwardedBody?: string;
}

/** Where ledger lines go: a Node host appends to `ledger.jsonl`, a worker to its store. */
export interface GatewayLedger {
  append(line: LedgerLine): void | Promise<void>;
  /** Every line, oldest first; of one session when `session` is given. */
  lines(session?: string): LedgerLine[] | Promise<LedgerLine[]>;
}

/** A ledger in memory, keeping the newest `limit` lines. */
export function memoryLedger(limit = 10_000): GatewayLedger {
  const kept: LedgerLine[] = [];
  return {
    append(line) {
      kept.push(line);
      if (kept.length > limit) kept.splice(0, kept.length - limit);
    },
    lines(session) {
      return session === undefined ? kept.slice() : kept.filter((line) => line.session === session);
    },
  };
}
