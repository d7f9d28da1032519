/**
 * `warpfold/baselines`: the strategies warpfold is measured against and the reference scorer's
 * metrics, shared by the tests, the benchmarks, the inspector and the command line. Replay a
 * session with `compareStrategies(messages, [rawStrategy, truncateStrategy, clearStrategy,
 * warpfoldStrategy()], { ceiling, price, millisecondsBetweenCalls })` and read each strategy's
 * `summary` (cost, cache %, retention at need, …); add sessions up with `addCounters` and `summaryRow`.
 */
export type {
  BaselineMessage,
  ExtraModelCall,
  PreparedView,
  PrepareOptions,
  Strategy,
  StrategyDefinition,
  StrategySetup,
} from './types.ts';
export { rawStrategy } from './raw.ts';
export { truncateStrategy, truncateView } from './truncate.ts';
export { maskStrategy, maskView } from './mask.ts';
export { clearStrategy } from './clear.ts';
export { bandedStrategy } from './banded.ts';
export { sawtoothLinesStrategy, sawtoothStrategy } from './sawtooth.ts';
export { summarizeStandInStrategy } from './summarize-stand-in.ts';
export { BASELINE_STRATEGIES } from './baseline-strategies.ts';
export {
  foldSessionStrategy,
  warpfoldStrategy,
  type FoldSessionConstructor,
  type FoldSessionLike,
} from './fold-session-strategy.ts';
export { compareStrategies, type StrategyFigures } from './compare-strategies.ts';
export {
  addCounters,
  CLOCK_STEP_MILLISECONDS,
  emptyCounters,
  replaySession,
  type ReplayCounters,
  type ReplayOptions,
} from './session-replay.ts';
export { summaryRow, type SummaryRow } from './summary-row.ts';
export { identifierContexts, identifiers, messageShingles } from './identifiers.ts';
export {
  createMessageTokenCounter,
  messageTokens,
  renderedMessage,
  resetSharedTokenMemo,
  textTokens,
  type MessageTokenCounter,
} from './message-tokens.ts';
