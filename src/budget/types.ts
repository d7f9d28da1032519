/**
 * How aggressively folds compress. Follows the usable message room:
 * small windows must survive, large ones can spend tokens to keep the cache warm.
 */
export type CompressionProfile = 'survival' | 'balanced' | 'cache-economic' | 'wide-cache-economic';

/**
 * `hard-epoch-only`: reaching the pressure ceiling collapses the view to a rebirth seed.
 * `hard-epoch-on-prefix-saturation`: refold first; collapse only once the sealed prefix
 * alone passes `prefixSaturationTokens`.
 */
export type EvictionPolicy = 'hard-epoch-only' | 'hard-epoch-on-prefix-saturation';

/** Where `contextWindowTokens` came from. */
export type BudgetSource = 'explicit' | 'model-table' | 'engine-table';

export interface ContextBudgetInput {
  /** Transport: `claude`, `claude-cli`, `openai`, `codex` (Codex CLI), `codex-api`, `gemini`, ... */
  engine: string;
  model: string;
  /** Required for models the table does not know; wins over the table when given. */
  contextWindowTokens?: number;
  /** Where a fold should land; clamped below the pressure ceiling. */
  targetBandTokens?: number;
  /** Override the derived ceiling; clamped below the message ceiling. */
  pressureCeilingTokens?: number;
}

export interface ContextBudget {
  engine: string;
  model: string;
  contextWindowTokens: number;
  /** Input-side cap when the provider documents one below the window (e.g. 272K of GPT-5's 400K). */
  inputLimitTokens: number | null;
  outputReserveTokens: number;
  safetyMarginTokens: number;
  /** Hard limit for the prompt: window minus output reserve and tokenizer safety margin. */
  messageCeilingTokens: number;
  /** The view must stay under this; FoldSession uses it as its ceiling. */
  pressureCeilingTokens: number;
  /** A sealed prefix larger than this is not worth refolding; prefer a hard epoch. */
  prefixSaturationTokens: number;
  /** Where a refold lands: the low end of the sawtooth. */
  bandTokens: number;
  /** Raw tail allowed on top of the frozen prefix before a `tail-cap` refold. */
  tailEpochCapTokens: number;
  compressionProfile: CompressionProfile;
  evictionPolicy: EvictionPolicy;
  source: BudgetSource;
}

export interface ModelWindow {
  /** Lowercase id prefix, matched at a boundary (end of id or a non-alphanumeric character). */
  prefix: string;
  contextWindowTokens: number;
  inputLimitTokens?: number;
}

export interface ResolvedWindow {
  contextWindowTokens: number;
  inputLimitTokens: number | null;
  source: BudgetSource;
}
