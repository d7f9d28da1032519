/**
 * The root entry's public names, pinned: adding or dropping an export of `warpfold` is a choice,
 * so it has to show up here. Values are read from the loaded module; types (which leave no trace
 * at run time) from the type checker's view of `src/index.ts`.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const VALUES = [
  'ackStep', 'ALWAYS_ON_FOLD_CONFIG', 'BudgetInputError', 'buildFoldIndex', 'buildFoldRecallContext',
  'buildRawRebirthSeedFromMessages', 'classifyAssistantRegister', 'compareEpisodesNewestFirst',
  'contextWindowForModel', 'createRecallState', 'currentTaskRailStep',
  'DEFAULT_FIND_LIMIT', 'DEFAULT_FOLD_CONFIG', 'DEFAULT_FOLD_PRESSURE_CEILING_TOKENS', 'DEFAULT_RECEIPT_LOG_LENGTH',
  'DEFAULT_FREEZE_CONFIG', 'DEFAULT_RECALL_CONFIG', 'DEFAULT_SPRINT_SIZE', 'deriveEpisodesFromMessages',
  'detectTurns', 'EPISODE_CARD_OPENING', 'episodeId', 'EPOCH_REASONS', 'estimateTokens',
  'extractRecallSignals', 'FOLD_ACKNOWLEDGEMENT', 'FOLD_RECEIPT_FORMAT', 'FOLD_RECEIPT_VERSION',
  'foldConfigForCeiling', 'foldContext', 'FoldInputError', 'FoldOptionsError', 'FoldSession',
  'FoldStateError', 'isOlderEpisode', 'isSettledRegister', 'isUserTurnBoundary', 'lockTaskRail',
  'lookupPath', 'MAX_CONCLUSION_CHARS', 'MAX_REQUEST_CHARS', 'MAX_VALUE_DEPTH',
  'MINIMUM_CONTEXT_WINDOW_TOKENS', 'MINIMUM_PRESSURE_CEILING_TOKENS', 'MODEL_WINDOWS', 'nominateVerbatim',
  'parseRegisterGlyph', 'planActiveTurnStepFold', 'REBIRTH_SEED_DIRECTIVE',
  'RECALL_CARD_CLOSING', 'RECALL_CARD_OPENING', 'recallEpisodeCards', 'recordEpisodes', 'REGISTER_GLYPHS',
  'REGISTER_MARKERS', 'REGISTER_NAMES', 'registerGlyph', 'renderRawRebirthSeed', 'renderTaskRail',
  'resolveContextBudget', 'restoreRecallState', 'restoreTaskRail', 'SAVED_SESSION_FORMAT',
  'SAVED_SESSION_VERSION', 'serializeTaskRail', 'shoot', 'sprint', 'startTaskRail', 'stripRecallCards',
  'TASK_RAIL_DRAFT_OPERATIONS', 'TASK_RAIL_FORMAT_VERSION', 'TASK_STEP_MARKS', 'TaskRailOperationError',
  'taskRailProgress', 'taskRailStatus', 'TIGHT_FOLD_CONFIG', 'unlockTaskRail', 'unwrapTaskRail',
];

const TYPES = [
  'AckOutcome', 'AckStepInput', 'BandReceipt', 'BudgetInputErrorCode', 'BudgetSource', 'CanonicalMessage',
  'CompressionProfile', 'ConclusionKind', 'ContextBudget', 'ContextBudgetInput', 'DeriveEpisodesOptions',
  'Dialect', 'Episode', 'EpisodeCard', 'EpisodeCardOptions', 'EpisodeConclusion', 'EpisodeFile',
  'EpisodeOutcome', 'EpisodeSpan', 'EpisodeStore', 'EpochReason', 'EvictionPolicy', 'FileTouch',
  'FindByPathsOptions', 'FoldConfig', 'FoldConfigOverrides', 'FoldEntry', 'FoldIndex', 'FoldIndexOptions',
  'FoldOutcome', 'FoldPrepareOptions', 'FoldRecallContext', 'FoldReceipt', 'FoldResult',
  'FoldSessionOptions', 'FoldStateProblem', 'FoldStats', 'FreezeConfig', 'IdentifierReceipt', 'LineReceipt',
  'ListEpisodesOptions', 'ModelWindow', 'PathPostings', 'PathTouch', 'ProviderMessage', 'RawRebirthSeed',
  'RawRebirthSeedOptions', 'RebirthSeedSection', 'RecallCard', 'RecallConfig', 'RecallSignal',
  'RecallSignals', 'RecallSignalSource', 'RecallState', 'RecallTrigger', 'RecordEpisodesResult',
  'RegisterClassification', 'RegisterGlyph', 'RegisterMarker', 'RegisterName', 'ResidentRecall', 'SavedBand', 'SavedBandOrigins',
  'SavedCalibration', 'SavedCard', 'SavedClip', 'SavedCounters', 'SavedFoldSession', 'SavedFoldState',
  'SavedHistory', 'SavedIdentifierKind', 'SavedLineKind', 'SavedRecall', 'SavedResidentRecall', 'SavedSeed', 'SerializedTaskRail', 'ShootInput',
  'SprintInput', 'StartTaskRailInput', 'TaskRail', 'TaskRailDraft', 'TaskRailDraftConflict',
  'TaskRailDraftOperation', 'TaskRailDraftOperationName', 'TaskRailDraftStatus', 'TaskRailError',
  'TaskRailErrorCode', 'TaskRailProgress', 'TaskRailResult', 'TaskRailStatus', 'TaskRailStep',
  'TaskRailStepInput', 'TaskRailStepPatch', 'TaskStepStatus', 'TokenCounter', 'ToolCallReceipt',
  'ToolCallShown', 'TouchKind', 'Turn',
];

/** Every name `src/index.ts` exports, types included, as the compiler sees it. */
function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const module = program.getTypeChecker().getSymbolAtLocation(program.getSourceFile(entry)!);
  if (!module) throw new Error(`no module symbol for ${entry}`);
  return program.getTypeChecker().getExportsOfModule(module).map((symbol) => symbol.name);
}

const sorted = (names: readonly string[]) => [...names].sort();

describe('the public API of warpfold', () => {
  it('exports exactly the chosen values', () => {
    expect(sorted(Object.keys(root))).toEqual(sorted(VALUES));
  });

  it('exports exactly the chosen values and types', () => {
    expect(sorted(exportedNames(join(ROOT, 'src/index.ts')))).toEqual(sorted([...VALUES, ...TYPES]));
  });

  it('keeps engine internals out', () => {
    for (const internal of ['pairToolCalls', 'shellTouches', 'callTouches', 'normalizePath', 'findIdentifiers', 'buildBand', 'Transcript']) expect(Object.keys(root)).not.toContain(internal);
  });
});
