export { DEFAULT_FOLD_PRESSURE_CEILING_TOKENS, FOLD_ACKNOWLEDGEMENT, FoldSession, type FoldSessionOptions } from './fold-session.ts';
export type { FoldOutcome, FoldPrepareOptions, FoldStats } from './fold-outcome.ts';
