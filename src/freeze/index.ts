export { DEFAULT_FREEZE_CONFIG, evaluateFoldFreeze, type FreezeConfig, type FreezeDecision, type FreezeInput } from './evaluate-freeze.ts';
export { commitFoldFreeze, createFoldFreezeState, EPOCH_REASONS, hasSealedPrefix, touchFoldFreeze, type ClippedMessage, type EpochReason, type FoldCommit, type FoldFreezeState, type RebirthSeedState } from './freeze-state.ts';
export { restoreFoldFreezeState, serializeFoldFreezeState, type SerializedFoldFreezeState } from './serialize.ts';
export { decodeSavedState, type DecodedSavedState } from './decode-saved-state.ts';
export { encodeSavedState, savedStateDigest } from './encode-saved-state.ts';
export { FoldStateError, type FoldStateProblem } from './fold-state-error.ts';
export { migrateVersion1 } from './migrate-saved-state.ts';
export * from './saved-format.ts';
