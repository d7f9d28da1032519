import {
  clearStrategy,
  identifiers,
  messageTokens,
  renderedMessage,
  resetSharedTokenMemo,
  truncateStrategy,
} from '../../baselines/index.ts';
import type { IdentifiersOf, Measure, ReplayStrategyDefinition } from './report-replay.ts';

export interface LoadedBaselines {
  readonly strategies: readonly ReplayStrategyDefinition[];
  readonly identifiers: IdentifiersOf;
  /** The baselines' memo of renderings and counts: measuring through it keeps one rendering per message in memory. */
  readonly measure: Measure;
  /** Drops the baselines' token memo between sessions, so memory stays bounded by one session. */
  readonly forget: () => void;
}

/** Truncation, clearing and the scorer's identifiers from `warpfold/baselines`, counted with the bundled o200k encoder. */
export function loadBaselines(): LoadedBaselines {
  return {
    strategies: [truncateStrategy, clearStrategy] as unknown as ReplayStrategyDefinition[],
    identifiers,
    measure: {
      rendered: (message) => renderedMessage(message as never),
      messageTokens: (message) => messageTokens(message as never),
    },
    forget: resetSharedTokenMemo,
  };
}
