import type { CanonicalMessage, ToolCall, ToolResult } from './types.ts';

export interface PairedToolCall {
  /** `<message index>.<position>`: stable across re-reads of the same history. */
  readonly id: string;
  readonly messageIndex: number;
  readonly call: ToolCall;
  readonly result: ToolResult | null;
  readonly resultIndex: number | null;
}

interface Slot {
  id: string;
  messageIndex: number;
  call: ToolCall;
  result: ToolResult | null;
  resultIndex: number | null;
}

/** Oldest-first queues of slots per key, with a moving head so each take costs O(1) amortized. */
class SlotQueues {
  private readonly queues = new Map<string, { slots: Slot[]; head: number }>();

  push(key: string, slot: Slot): void {
    const queue = this.queues.get(key);
    if (queue) queue.slots.push(slot);
    else this.queues.set(key, { slots: [slot], head: 0 });
  }

  /** The oldest slot of `key` still unanswered. */
  take(key: string): Slot | undefined {
    const queue = this.queues.get(key);
    if (!queue) return undefined;
    while (queue.head < queue.slots.length && queue.slots[queue.head].result !== null) queue.head++;
    return queue.slots[queue.head];
  }
}

/**
 * Every tool call of `messages` with the result that answers it. A result read from a history
 * names its call (`callRef`, paired by the reader over the whole history), so the pairing of a
 * slice is the pairing of the whole: a result whose call lies outside the slice stays unpaired.
 * Results built by hand fall back to the reader's rule: by provider id first, then by name for
 * dialects without ids (Gemini), oldest first. Linear in calls and results.
 */
export function pairToolCalls(messages: readonly CanonicalMessage[]): PairedToolCall[] {
  const pairs: Slot[] = [];
  const byRef = new Map<string, Slot>();
  const byId = new SlotQueues();
  const byName = new SlotQueues();
  for (const message of messages) {
    message.toolCalls.forEach((call, position) => {
      const slot: Slot = {
        id: `${message.index}.${position}`,
        messageIndex: message.index,
        call,
        result: null,
        resultIndex: null,
      };
      pairs.push(slot);
      byRef.set(slot.id, slot);
      byId.push(call.id, slot);
      byName.push(call.name, slot);
    });
    for (const result of message.toolResults) {
      const slot = result.callRef ? byRef.get(result.callRef) : (byId.take(result.callId) ?? byName.take(result.name));
      if (!slot || slot.result !== null) continue;
      slot.result = result;
      slot.resultIndex = message.index;
    }
  }
  return pairs;
}
