import type { CanonicalMessage, ToolCall, ToolResult } from './types.ts';

export interface PairedToolCall {
  /** `<message index>.<position>`: stable across re-reads of the same history. */
  readonly id: string;
  readonly messageIndex: number;
  readonly call: ToolCall;
  readonly result: ToolResult | null;
  readonly resultIndex: number | null;
}

/**
 * Every tool call of `messages` with the result that answers it. Matching mirrors the reader's
 * ledger: by provider id first, then by name for dialects without ids (Gemini), oldest first.
 */
export function pairToolCalls(messages: readonly CanonicalMessage[]): PairedToolCall[] {
  const pairs: Array<{ id: string; messageIndex: number; call: ToolCall; result: ToolResult | null; resultIndex: number | null }> = [];
  const pending: number[] = [];
  for (const message of messages) {
    message.toolCalls.forEach((call, position) => {
      pending.push(pairs.length);
      pairs.push({ id: `${message.index}.${position}`, messageIndex: message.index, call, result: null, resultIndex: null });
    });
    for (const result of message.toolResults) {
      let at = pending.findIndex((slot) => pairs[slot].call.id === result.callId);
      if (at < 0) at = pending.findIndex((slot) => pairs[slot].call.name === result.name);
      if (at < 0) continue;
      const slot = pending.splice(at, 1)[0];
      pairs[slot].result = result;
      pairs[slot].resultIndex = message.index;
    }
  }
  return pairs;
}
