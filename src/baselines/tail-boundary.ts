import { isToolResultMessage } from './dialect.ts';
import type { BaselineMessage } from './types.ts';

/**
 * Where a raw tail of at most `budget` tokens starts, searching no earlier than `from`: the newest
 * messages that fit, never opening on a tool result (its call would be folded away).
 */
export function tailBoundary(
  history: readonly BaselineMessage[],
  from: number,
  budget: number,
  messageTokens: (message: BaselineMessage) => number,
): number {
  let tail = 0;
  let boundary = history.length;
  for (let index = history.length - 1; index >= from; index--) {
    const tokens = messageTokens(history[index]);
    if (tail + tokens > budget) break;
    tail += tokens;
    boundary = index;
  }
  while (boundary < history.length && isToolResultMessage(history[boundary])) boundary++;
  return boundary;
}
