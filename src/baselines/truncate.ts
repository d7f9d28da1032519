import { headMessages, validTailStart } from './dialect.ts';
import { messageTokens, viewTokens } from './message-tokens.ts';
import type { BaselineMessage, StrategyDefinition } from './types.ts';

/** System prompt and task, then the newest messages that fit; the tail never opens with a tool result. */
export function truncateView(history: readonly BaselineMessage[], ceiling: number): BaselineMessage[] {
  const head = headMessages(history);
  const rest = history.slice(head.length);
  let budget = ceiling - viewTokens(head);
  let start = rest.length;
  for (let index = rest.length - 1; index >= 0; index--) {
    const tokens = messageTokens(rest[index]);
    if (budget - tokens < 0) break;
    budget -= tokens;
    start = index;
  }
  return [...head, ...rest.slice(validTailStart(rest, start))];
}

export const truncateStrategy: StrategyDefinition = {
  name: 'truncate',
  description: 'system prompt and task, then the newest messages that fit',
  create: ({ ceiling }) => ({ prepare: (history) => ({ messages: truncateView(history, ceiling) }) }),
};
