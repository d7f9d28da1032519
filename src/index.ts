/**
 * warpfold: deterministic, zero-LLM context folding. `FoldSession.prepare(history)` returns a
 * bounded, cache-stable view of a provider-shaped history.
 */
export { FoldSession, DEFAULT_FOLD_PRESSURE_CEILING_TOKENS, FOLD_ACKNOWLEDGEMENT, type FoldSessionOptions, type FoldOutcome, type FoldPrepareOptions, type FoldStats } from './session/index.ts';
export { ALWAYS_ON_FOLD_CONFIG, DEFAULT_FOLD_CONFIG, type FoldConfig } from './fold/fold-config.ts';
export { DEFAULT_FREEZE_CONFIG, type FreezeConfig, type EpochReason } from './freeze/index.ts';
export { detectTurns, FoldInputError, isUserTurnBoundary, type CanonicalMessage, type Dialect, type ProviderMessage, type TokenCounter, type Turn } from './messages/index.ts';
export { nominateVerbatim } from './closet/index.ts';
export { estimateTokens } from './text/estimate-tokens.ts';
