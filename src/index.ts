/**
 * warpfold: deterministic, zero-LLM context folding. `FoldSession.prepare(history)` returns a
 * bounded, cache-stable view of a provider-shaped history.
 *
 * The root entry holds what every host needs: the session with its options, outcome and receipt,
 * the saved state, the default fold config, the message and counter types, and the errors a host
 * catches. Every other public name lives in exactly one subpath (package.json `exports`);
 * `test/architecture/public-api.test.ts` pins both rules.
 */
export { FoldSession, type FoldSessionOptions } from './session/fold-session.ts';
export type { FoldOutcome, FoldPrepareOptions, FoldStats } from './session/fold-outcome.ts';
export type { FoldReceipt } from './session/fold-receipt.ts';
export type { SavedFoldSession } from './freeze/saved-format.ts';
export type { EpochReason } from './freeze/freeze-state.ts';
export {
  DEFAULT_FOLD_CONFIG,
  type FoldConfig,
  type FoldConfigOverrides,
} from './fold/fold-config.ts';
export type { TokenCounter } from './messages/transcript.ts';
export type { Dialect, ProviderMessage } from './messages/types.ts';
export { FoldInputError, FoldOptionsError, WarpfoldError, type WarpfoldErrorCode } from './errors.ts';
export { FoldStateError } from './freeze/fold-state-error.ts';
export { ProviderInputError } from './providers/provider-error.ts';
