import { isToolResultMessage, replaceToolResults } from './dialect.ts';
import { viewTokens } from './message-tokens.ts';
import { truncateView } from './truncate.ts';
import type { BaselineMessage, StrategyDefinition } from './types.ts';

const KEEP_RESULTS = 10;
const PLACEHOLDER = '[Old tool output omitted for brevity]';

/** Observation masking: all but the newest 10 tool results become a placeholder; truncated if still over. */
export function maskView(history: readonly BaselineMessage[], ceiling: number): BaselineMessage[] {
  const resultIndexes = history.flatMap((message, index) => (isToolResultMessage(message) ? [index] : []));
  const masked = new Set(resultIndexes.slice(0, Math.max(0, resultIndexes.length - KEEP_RESULTS)));
  const view = history.map((message, index) =>
    masked.has(index) ? replaceToolResults(message, PLACEHOLDER) : message,
  );
  return viewTokens(view) > ceiling ? truncateView(view, ceiling) : view;
}

export const maskStrategy: StrategyDefinition = {
  name: 'mask',
  description: 'observation masking: keep the last 10 tool results, placeholder for older ones, truncate if still over',
  create: ({ ceiling }) => ({ prepare: (history) => ({ messages: maskView(history, ceiling) }) }),
};
