/** `warpfold/fold`: the pieces a band is made of, for hosts that fold outside a `FoldSession`. */
export { buildBand, FOLD_PREAMBLE, type BandRequest } from './build-band.ts';
export type { Band } from './band.ts';
export type { BandReceipt, IdentifierReceipt, LineReceipt, ToolCallReceipt, ToolCallShown } from './band-receipt.ts';
export { FOLD_ACKNOWLEDGEMENT } from './fold-acknowledgement.ts';
export { ALWAYS_ON_FOLD_CONFIG, resolveFoldConfig } from './fold-config.ts';
export { foldContext, type FoldContextOptions, type FoldResult } from './fold-context.ts';
export { skeletonLine } from './skeleton-line.ts';
export { planActiveTurnStepFold, type StepFoldOptions, type StepFoldPlan } from './step-fold.ts';
export { toolFamily, type ToolFamily } from './tool-family.ts';
export { toolOutcome, type ToolOutcome } from './tool-outcome.ts';
export { detectTurns, isUserTurnBoundary } from '../messages/turns.ts';
export { MAX_VALUE_DEPTH } from '../messages/value-guard.ts';
export type { CanonicalMessage, Turn } from '../messages/types.ts';
export { nominateVerbatim, extractVerbatimContextLabel } from '../closet/index.ts';
export { estimateTokens } from '../text/estimate-tokens.ts';
