import { isToolResultMessage, replaceToolResults } from './dialect.ts';
import { viewTokens } from './message-tokens.ts';
import { truncateView } from './truncate.ts';
import type { BaselineMessage, StrategyDefinition } from './types.ts';

const KEEP_RESULTS = 3;
const TRIGGER_FRACTION = 0.8;
const PLACEHOLDER = '[cleared]';

// Anthropic's clear_tool_uses context editing, emulated: once the prompt passes 80% of the
// ceiling, every tool result but the newest 3 is cleared, and stays cleared.
function createClear(ceiling: number) {
  const cleared = new Set<number>();
  const placeholders = new Map<number, BaselineMessage>();
  // One placeholder object per index keeps the view's objects stable between calls.
  const viewOf = (history: readonly BaselineMessage[]): BaselineMessage[] =>
    history.map((message, index) => {
      if (!cleared.has(index)) return message;
      let placeholder = placeholders.get(index);
      if (!placeholder) placeholders.set(index, (placeholder = replaceToolResults(message, PLACEHOLDER)));
      return placeholder;
    });
  return {
    prepare(history: readonly BaselineMessage[]) {
      let view = viewOf(history);
      if (viewTokens(view) > TRIGGER_FRACTION * ceiling) {
        const resultIndexes = history.flatMap((message, index) => (isToolResultMessage(message) ? [index] : []));
        for (const index of resultIndexes.slice(0, Math.max(0, resultIndexes.length - KEEP_RESULTS)))
          cleared.add(index);
        view = viewOf(history);
      }
      return { messages: viewTokens(view) > ceiling ? truncateView(view, ceiling) : view };
    },
  };
}

export const clearStrategy: StrategyDefinition = {
  name: 'clear',
  description:
    "tool-result clearing like Anthropic's clear_tool_uses: over 80% of the ceiling, clear all but the newest 3 results",
  create: ({ ceiling }) => createClear(ceiling),
};
