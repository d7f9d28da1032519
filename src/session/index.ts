export { DEFAULT_FOLD_PRESSURE_CEILING_TOKENS, FOLD_ACKNOWLEDGEMENT, FoldSession, RECALL_BY_DEFAULT_UP_TO, type FoldSessionOptions } from './fold-session.ts';
export type { FoldOutcome, FoldPrepareOptions, FoldStats } from './fold-outcome.ts';
