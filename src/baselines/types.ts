import type { RenderableMessage } from '../tokens/index.ts';

/** A provider-shaped message (OpenAI, Anthropic or Gemini); strategies treat it as opaque data. */
export interface BaselineMessage extends RenderableMessage {
  readonly [field: string]: unknown;
}

export interface PrepareOptions {
  /** Input tokens the provider reported for the previous call, when the host has telemetry. */
  readonly measuredInputTokens?: number;
}

/** A model call a strategy makes on its own (a summarizer's), billed on top of the agent's calls. */
export interface ExtraModelCall {
  readonly messages: readonly BaselineMessage[];
  readonly outputTokens: number;
}

export interface PreparedView {
  readonly messages: readonly BaselineMessage[];
  readonly extraCalls?: readonly ExtraModelCall[];
}

/** One strategy instance, stateful across the calls of one session. */
export interface Strategy {
  prepare(history: readonly BaselineMessage[], options: PrepareOptions): PreparedView;
}

export interface StrategySetup {
  /** Prompt budget in tokens. */
  readonly ceiling: number;
  /** Exact o200k counter (what the scorer hands FoldSession). */
  readonly countTokens: (text: string) => number;
  /** Injected clock, milliseconds. */
  readonly now: () => number;
}

export interface StrategyDefinition {
  readonly name: string;
  readonly description: string;
  create(setup: StrategySetup): Strategy;
}
