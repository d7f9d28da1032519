/**
 * warpfold: deterministic, zero-LLM context folding. `FoldSession.prepare(history)` returns a
 * bounded, cache-stable view of a provider-shaped history.
 */
export { FoldSession, DEFAULT_FOLD_PRESSURE_CEILING_TOKENS, FOLD_ACKNOWLEDGEMENT, type FoldSessionOptions, type FoldOutcome, type FoldPrepareOptions, type FoldStats } from './session/index.ts';
export { FOLD_RECEIPT_FORMAT, FOLD_RECEIPT_VERSION, type FoldReceipt, type BandReceipt, type IdentifierReceipt, type LineReceipt, type ToolCallReceipt, type ToolCallShown } from './session/index.ts';
export { ALWAYS_ON_FOLD_CONFIG, DEFAULT_FOLD_CONFIG, TIGHT_FOLD_CONFIG, foldConfigForCeiling, type FoldConfig, type FoldConfigOverrides } from './fold/fold-config.ts';
export { DEFAULT_FREEZE_CONFIG, EPOCH_REASONS, type FreezeConfig, type EpochReason } from './freeze/index.ts';
export { FoldStateError, SAVED_SESSION_FORMAT, SAVED_SESSION_VERSION, type FoldStateProblem, type SavedBand, type SavedCalibration, type SavedCard, type SavedClip, type SavedCounters, type SavedFoldSession, type SavedFoldState, type SavedHistory, type SavedRecall, type SavedResidentRecall, type SavedSeed } from './freeze/index.ts';
export { detectTurns, FoldInputError, FoldOptionsError, isUserTurnBoundary, MAX_VALUE_DEPTH, type CanonicalMessage, type Dialect, type ProviderMessage, type TokenCounter, type Turn } from './messages/index.ts';
export { nominateVerbatim } from './closet/index.ts';
export { estimateTokens } from './text/estimate-tokens.ts';
export { foldContext, planActiveTurnStepFold, type FoldResult } from './fold/index.ts';
export * from './rebirth/index.ts';
export * from './glyphs/index.ts';
export * from './budget/index.ts';
export * from './task-rail/index.ts';
export * from './episodes/index.ts';
export * from './recall/index.ts';
