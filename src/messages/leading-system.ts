import type { CanonicalMessage } from './types.ts';

/** How many system messages open the history, looking no further than `upTo` (exclusive). */
export function leadingSystemCount(messages: readonly CanonicalMessage[], upTo = messages.length): number {
  let count = 0;
  while (count < upTo && messages[count].role === 'system') count++;
  return count;
}
