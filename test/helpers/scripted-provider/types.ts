import type { AnthropicCacheSimulator, GeminiCacheSimulator, OpenAICacheSimulator } from '../provider-cache.ts';

/** What one request was, to the script. */
export type ExchangeKind = 'tool-call' | 'final' | 'compaction' | 'router' | 'count-tokens' | 'text' | 'fault';

export interface Exchange {
  readonly kind: ExchangeKind;
  /** The step a tool call runs, or the last step seen for a final answer or a summary. */
  readonly step?: number;
  /** The usage the reply reports, in the API's own field names. */
  readonly usage?: Readonly<Record<string, number>>;
}

/** A whole reply: status, headers and the body's chunks, written in order (SSE events, or one JSON). */
export interface ProviderReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly chunks: readonly string[];
  readonly exchange: Exchange;
}

/** State one provider keeps across requests: the simulated caches, and how long the script runs. */
export interface ScriptContext {
  readonly steps: number;
  /** Tool calls per user turn (Anthropic only); the whole script in one turn when absent. */
  readonly turnSteps?: number;
  readonly anthropicCache: AnthropicCacheSimulator;
  readonly openaiCache: OpenAICacheSimulator;
  readonly geminiCache: GeminiCacheSimulator;
}

/** One Server-Sent Event; `event` is omitted where the API sends bare `data:` lines. */
export const sseEvent = (data: unknown, event?: string) =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } as const;
export const JSON_HEADERS = { 'content-type': 'application/json' } as const;

export const jsonReply = (body: unknown, exchange: Exchange, status = 200): ProviderReply => ({
  status,
  headers: JSON_HEADERS,
  chunks: [JSON.stringify(body)],
  exchange,
});

/** A short stable id from a step and a salt: replies to one request are the same every time. */
export const stableId = (prefix: string, step: number, salt: string) =>
  `${prefix}${String(step + 1).padStart(3, '0')}${salt.padEnd(21, '0').slice(0, 21)}`;

/** A stand-in signature: opaque, base64, and tied to its step, so a changed one is caught. */
export const stableSignature = (step: number) =>
  Buffer.from(`scripted-signature step=${step} ${'x'.repeat(48)}`).toString('base64');
