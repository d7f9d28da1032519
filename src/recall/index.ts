export {
  buildFoldIndex,
  lookupPath,
  type FoldEntry,
  type FoldIndex,
  type FoldIndexOptions,
  type PathPostings,
} from './fold-index.ts';
export {
  extractRecallSignals,
  type RecallSignal,
  type RecallSignals,
  type RecallSignalSource,
} from './recall-signals.ts';
export {
  buildFoldRecallContext,
  type FoldRecallContext,
  type RecallCard,
  type RecallTrigger,
} from './build-fold-recall-context.ts';
export {
  DEFAULT_RECALL_CONFIG,
  resolveRecallConfig,
  type RecallConfig,
  type ResolvedRecallConfig,
} from './recall-config.ts';
export { createRecallState, restoreRecallState, type RecallState, type ResidentRecall } from './recall-state.ts';
export { RECALL_CARD_CLOSING, RECALL_CARD_OPENING, stripRecallCards } from './recall-card-frame.ts';
export type { PathTouch, TouchKind } from './shell-touches.ts';
