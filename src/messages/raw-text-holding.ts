import { stringLeaves } from './string-leaves.ts';
import type { CanonicalMessage } from './types.ts';

/**
 * The first raw text of messages [from, end) that holds `value` (prose, reasoning, tool results,
 * call arguments), and the message it is in; undefined when none does. A fold line sits at its
 * call's message while its output is in the answer after it, so callers search forward.
 */
export function rawTextHolding(
  messageAt: (index: number) => CanonicalMessage,
  value: string,
  from: number,
  end: number,
): { readonly text: string; readonly index: number } | undefined {
  // without building an array of texts per message: this runs for many candidates of one fold
  for (let index = Math.max(0, from); index < end; index++) {
    const message = messageAt(index);
    if (message.text.includes(value)) return { text: message.text, index };
    if (message.reasoning.includes(value)) return { text: message.reasoning, index };
    for (const result of message.toolResults) if (result.text.includes(value)) return { text: result.text, index };
    for (const call of message.toolCalls)
      for (const text of stringLeaves(call.input)) if (text.includes(value)) return { text, index };
  }
  return undefined;
}
