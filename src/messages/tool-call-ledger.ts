import type { ToolCall } from './types.ts';

/** A call waiting for its result: where it sits (`<message index>.<position>`) and its name. */
interface PendingCall {
  readonly ref: string;
  readonly name: string;
  /** Set once answered, so the other queue holding this call skips it. */
  answered: boolean;
}

/** A first-in first-out queue with a moving head: taking from the front costs O(1), not a shift. */
class CallQueue {
  private items: PendingCall[] = [];
  private head = 0;

  push(call: PendingCall): void {
    this.items.push(call);
  }

  /** The oldest call not yet answered, dropping answered ones on the way. */
  peek(): PendingCall | undefined {
    while (this.head < this.items.length && this.items[this.head].answered) this.head++;
    if (this.head > 1_024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return this.items[this.head];
  }

  clone(copies: Map<PendingCall, PendingCall>): CallQueue {
    const copy = new CallQueue();
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i];
      if (item.answered) continue;
      let twin = copies.get(item);
      if (!twin) copies.set(item, (twin = { ...item }));
      copy.items.push(twin);
    }
    return copy;
  }
}

/** What `close` answers: the name of the call and where it sits. */
export interface AnsweredCall {
  readonly name: string;
  /** `<message index>.<position>` of the call: the same id `pairToolCalls` gives it. */
  readonly ref: string;
}

/**
 * Pairs tool results with their calls across messages. Ids may repeat once a result came back
 * (tau-bench does this), and Gemini calls may carry no id at all, so pending calls queue per key.
 * Gemini may also answer an id-bearing call by name only, so every call queues under its name
 * too; each result costs O(1), so a step with 100k calls reads in linear time.
 */
export class ToolCallLedger {
  private readonly pendingById = new Map<string, CallQueue>();
  /** Id-less calls by name: a name-only answer takes these first. */
  private readonly pendingByName = new Map<string, CallQueue>();
  /** Id-bearing calls by name, for a Gemini answer that names the call but gives no id. */
  private readonly pendingIdCallsByName = new Map<string, CallQueue>();

  open(call: ToolCall, hasProviderId: boolean, ref = ''): void {
    const pending: PendingCall = { ref, name: call.name, answered: false };
    if (hasProviderId) {
      queueFor(this.pendingById, call.id).push(pending);
      queueFor(this.pendingIdCallsByName, call.name).push(pending);
    } else queueFor(this.pendingByName, call.name).push(pending);
  }

  /** The call a result answers, or undefined when no such call is pending. */
  close(callId: string | undefined, name: string | undefined): AnsweredCall | undefined {
    if (callId !== undefined) {
      const call = take(this.pendingById, callId);
      if (call) return call;
    }
    if (name !== undefined) return take(this.pendingByName, name) ?? take(this.pendingIdCallsByName, name);
    return undefined;
  }

  clone(): ToolCallLedger {
    const copy = new ToolCallLedger();
    const copies = new Map<PendingCall, PendingCall>();
    for (const [source, target] of [
      [this.pendingById, copy.pendingById],
      [this.pendingByName, copy.pendingByName],
      [this.pendingIdCallsByName, copy.pendingIdCallsByName],
    ] as const)
      for (const [key, queue] of source) target.set(key, queue.clone(copies));
    return copy;
  }
}

function queueFor(queues: Map<string, CallQueue>, key: string): CallQueue {
  let queue = queues.get(key);
  if (!queue) queues.set(key, (queue = new CallQueue()));
  return queue;
}

/** Takes the oldest pending call of a key; an emptied key is dropped so the ledger holds only what is open. */
function take(queues: Map<string, CallQueue>, key: string): PendingCall | undefined {
  const queue = queues.get(key);
  const call = queue?.peek();
  if (!call) {
    if (queue) queues.delete(key);
    return undefined;
  }
  call.answered = true;
  if (!queue!.peek()) queues.delete(key);
  return call;
}
