/**
 * The freeze state machine (subpath `warpfold/freeze`): when the sealed prefix is reused or
 * rebuilt, and the saved form of a session. `FoldSession` drives it; hosts that run their own
 * fold loop over `warpfold/fold` use it directly.
 */
export {
  DEFAULT_FREEZE_CONFIG,
  evaluateFoldFreeze,
  type FreezeConfig,
  type FreezeDecision,
  type FreezeInput,
} from './evaluate-freeze.ts';
export {
  commitFoldFreeze,
  createFoldFreezeState,
  EPOCH_REASONS,
  hasSealedPrefix,
  touchFoldFreeze,
  type ClippedMessage,
  type FoldCommit,
  type FoldFreezeState,
  type RebirthSeedState,
} from './freeze-state.ts';
export type { Calibration } from './calibration.ts';
export { restoreFoldFreezeState, serializeFoldFreezeState, type SerializedFoldFreezeState } from './serialize.ts';
export type { FoldStateProblem } from './fold-state-error.ts';
export {
  SAVED_SESSION_FORMAT,
  SAVED_SESSION_VERSION,
  type SavedBand,
  type SavedBandOrigins,
  type SavedIdentifierKind,
  type SavedLineKind,
  type SavedCalibration,
  type SavedCard,
  type SavedClip,
  type SavedCounters,
  type SavedFoldState,
  type SavedHistory,
  type SavedRecall,
  type SavedResidentRecall,
  type SavedSeed,
} from './saved-format.ts';
