import type { TokenCounter } from '../messages/transcript.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { callable, finite, optional, record, type Fields } from '../validation/check.ts';
import { checkOption } from '../validation/check-option.ts';

export interface RecallConfig {
  /** Cards per call. Default 3: enough for the touched file, a failure and a neighbour. */
  readonly maxCards: number;
  /** Tokens one card may take, header and conclusion included. Default 1,200. */
  readonly cardTokens: number;
  /** Tokens all cards of one call may take. Default 2,400: recall rides the cache tail and must stay small. */
  readonly totalTokens: number;
  /** A path, identifier or entry recalled at call N is not recalled again before call N + residencyCalls + 1. Default 8. */
  readonly residencyCalls: number;
  /** Optional wall-clock cap on residency (ms), used only when `now` is passed. Default: none. */
  readonly residencyMs?: number;
  /** Lines kept either side of a matching line in an excerpt. Default 3. */
  readonly contextLines: number;
  /**
   * A result that merely names the path or identifier is shown whole only up to this size;
   * above it, just the lines around the match. An earlier call *on* the path may fill its card.
   * Default 300.
   */
  readonly wholeResultTokens: number;
  /** A card smaller than this says too little; recall stops once less budget remains. Default 96. */
  readonly minCardTokens: number;
  /** Token counter; `estimateTokens` when absent. */
  readonly countTokens?: TokenCounter;
}

export const DEFAULT_RECALL_CONFIG: Readonly<RecallConfig> = Object.freeze({
  maxCards: 3,
  cardTokens: 1_200,
  totalTokens: 2_400,
  residencyCalls: 8,
  contextLines: 3,
  wholeResultTokens: 300,
  minCardTokens: 96,
});

export interface ResolvedRecallConfig extends RecallConfig {
  readonly countTokens: TokenCounter;
}

/** Every recall setting and what it must be: a setting added to the type without a check here does not compile. */
export const RECALL_CONFIG_FIELDS: Fields<RecallConfig> = {
  maxCards: finite(0),
  cardTokens: finite(1),
  totalTokens: finite(0),
  residencyCalls: finite(0),
  residencyMs: optional(finite(0)),
  contextLines: finite(0),
  wholeResultTokens: finite(0),
  minCardTokens: finite(1),
  countTokens: optional(callable as (value: unknown, path: string) => TokenCounter),
};

/** The defaults with `config` over them, every value checked: a bad one is a FoldOptionsError naming `recall.<setting>`. */
export function resolveRecallConfig(config: Partial<RecallConfig> = {}): ResolvedRecallConfig {
  const merged = { ...DEFAULT_RECALL_CONFIG, ...config };
  checkOption(record(RECALL_CONFIG_FIELDS), merged, 'recall');
  return { ...merged, countTokens: merged.countTokens ?? estimateTokens };
}
