/**
 * warpfold: deterministic, zero-LLM context folding. `FoldSession.prepare(history)` returns a
 * bounded, cache-stable view of a provider-shaped history.
 *
 * The root entry names what a host uses: the session with its options, outcome, receipts and
 * errors, the fold and freeze configs, saved state, and the public API of the rebirth seed,
 * glyphs, budget, task rail, episodes and recall. Everything else stays internal; the subpaths
 * (package.json `exports`) hold the finer pieces. `test/architecture/public-api.test.ts` pins this list.
 */
export { FoldSession, DEFAULT_FOLD_PRESSURE_CEILING_TOKENS, DEFAULT_RECEIPT_LOG_LENGTH, FOLD_ACKNOWLEDGEMENT, type FoldSessionOptions, type FoldOutcome, type FoldPrepareOptions, type FoldStats } from './session/index.ts';
export { FOLD_RECEIPT_FORMAT, FOLD_RECEIPT_VERSION, type FoldReceipt, type BandReceipt, type IdentifierReceipt, type LineReceipt, type ToolCallReceipt, type ToolCallShown } from './session/index.ts';
export { ALWAYS_ON_FOLD_CONFIG, DEFAULT_FOLD_CONFIG, TIGHT_FOLD_CONFIG, foldConfigForCeiling, type FoldConfig, type FoldConfigOverrides } from './fold/fold-config.ts';
export { DEFAULT_FREEZE_CONFIG, EPOCH_REASONS, type FreezeConfig, type EpochReason } from './freeze/index.ts';
export { FoldStateError, SAVED_SESSION_FORMAT, SAVED_SESSION_VERSION, type FoldStateProblem, type SavedBand, type SavedBandOrigins, type SavedIdentifierKind, type SavedLineKind, type SavedCalibration, type SavedCard, type SavedClip, type SavedCounters, type SavedFoldSession, type SavedFoldState, type SavedHistory, type SavedRecall, type SavedResidentRecall, type SavedSeed } from './freeze/index.ts';
export { detectTurns, FoldInputError, FoldOptionsError, isUserTurnBoundary, MAX_VALUE_DEPTH, type CanonicalMessage, type Dialect, type ProviderMessage, type TokenCounter, type Turn } from './messages/index.ts';
export { nominateVerbatim } from './closet/index.ts';
export { estimateTokens } from './text/estimate-tokens.ts';
export { foldContext, planActiveTurnStepFold, type FoldResult } from './fold/index.ts';
export { buildRawRebirthSeedFromMessages, REBIRTH_SEED_DIRECTIVE, renderRawRebirthSeed, type RawRebirthSeed, type RawRebirthSeedOptions, type RebirthSeedSection } from './rebirth/index.ts';
export {
  classifyAssistantRegister,
  isSettledRegister,
  parseRegisterGlyph,
  REGISTER_GLYPHS,
  REGISTER_MARKERS,
  REGISTER_NAMES,
  registerGlyph,
  type RegisterClassification,
  type RegisterGlyph,
  type RegisterMarker,
  type RegisterName,
} from './glyphs/index.ts';
export {
  BudgetInputError,
  contextWindowForModel,
  MINIMUM_CONTEXT_WINDOW_TOKENS,
  MINIMUM_PRESSURE_CEILING_TOKENS,
  MODEL_WINDOWS,
  resolveContextBudget,
  type BudgetInputErrorCode,
  type BudgetSource,
  type CompressionProfile,
  type ContextBudget,
  type ContextBudgetInput,
  type EvictionPolicy,
  type ModelWindow,
} from './budget/index.ts';
export {
  ackStep,
  currentTaskRailStep,
  DEFAULT_SPRINT_SIZE,
  lockTaskRail,
  renderTaskRail,
  restoreTaskRail,
  serializeTaskRail,
  shoot,
  sprint,
  startTaskRail,
  TASK_RAIL_DRAFT_OPERATIONS,
  TASK_RAIL_FORMAT_VERSION,
  TASK_STEP_MARKS,
  taskRailProgress,
  taskRailStatus,
  TaskRailOperationError,
  unlockTaskRail,
  unwrapTaskRail,
  type AckOutcome,
  type AckStepInput,
  type SerializedTaskRail,
  type ShootInput,
  type SprintInput,
  type StartTaskRailInput,
  type TaskRail,
  type TaskRailDraft,
  type TaskRailDraftConflict,
  type TaskRailDraftOperation,
  type TaskRailDraftOperationName,
  type TaskRailDraftStatus,
  type TaskRailError,
  type TaskRailErrorCode,
  type TaskRailProgress,
  type TaskRailResult,
  type TaskRailStatus,
  type TaskRailStep,
  type TaskRailStepInput,
  type TaskRailStepPatch,
  type TaskStepStatus,
} from './task-rail/index.ts';
export {
  compareEpisodesNewestFirst,
  DEFAULT_FIND_LIMIT,
  deriveEpisodesFromMessages,
  EPISODE_CARD_OPENING,
  episodeId,
  isOlderEpisode,
  MAX_CONCLUSION_CHARS,
  MAX_REQUEST_CHARS,
  recallEpisodeCards,
  recordEpisodes,
  type ConclusionKind,
  type DeriveEpisodesOptions,
  type Episode,
  type EpisodeCard,
  type EpisodeCardOptions,
  type EpisodeConclusion,
  type EpisodeFile,
  type EpisodeOutcome,
  type EpisodeSpan,
  type EpisodeStore,
  type FileTouch,
  type FindByPathsOptions,
  type ListEpisodesOptions,
  type RecordEpisodesResult,
} from './episodes/index.ts';
export {
  buildFoldIndex,
  buildFoldRecallContext,
  createRecallState,
  DEFAULT_RECALL_CONFIG,
  extractRecallSignals,
  lookupPath,
  RECALL_CARD_CLOSING,
  RECALL_CARD_OPENING,
  restoreRecallState,
  stripRecallCards,
  type FoldEntry,
  type FoldIndex,
  type FoldIndexOptions,
  type FoldRecallContext,
  type PathPostings,
  type PathTouch,
  type RecallCard,
  type RecallConfig,
  type RecallSignal,
  type RecallSignals,
  type RecallSignalSource,
  type RecallState,
  type RecallTrigger,
  type ResidentRecall,
  type TouchKind,
} from './recall/index.ts';
