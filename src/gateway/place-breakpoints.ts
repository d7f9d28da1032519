import { ANTHROPIC_MAX_BREAKPOINTS } from '../providers/anthropic/cache-breakpoints.ts';
import { contentBlocks } from '../messages/dialects/anthropic.ts';
import type { ProviderMessage } from '../messages/types.ts';
import { isRecord } from '../text/is-record.ts';

/** Block types that cannot carry `cache_control`, and a signed block the gateway never touches. */
const UNMARKABLE = new Set(['thinking', 'redacted_thinking']);

function marks(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + marks(item), 0);
  return isRecord(value) && value.cache_control !== undefined ? 1 : 0;
}

function hasLongTtl(value: unknown): boolean {
  const blocks = Array.isArray(value) ? value : [value];
  return blocks.some((block) => isRecord(block) && isRecord(block.cache_control) && block.cache_control.ttl === '1h');
}

function markable(block: unknown): boolean {
  return (
    isRecord(block) &&
    typeof block.type === 'string' &&
    !UNMARKABLE.has(block.type) &&
    (block.type !== 'text' || (typeof block.text === 'string' && block.text !== ''))
  );
}

/** The message with a breakpoint on its last block that can carry one; undefined when none can. */
function withMark(message: ProviderMessage, ttl: '5m' | '1h'): ProviderMessage | undefined {
  if (message.role === 'system') return undefined;
  const blocks = contentBlocks(message.content);
  for (let index = blocks.length - 1; index >= 0; index--) {
    if (!markable(blocks[index])) continue;
    const copy = blocks.slice();
    copy[index] = {
      ...(blocks[index] as object),
      cache_control: ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' },
    };
    return { ...message, content: copy };
  }
  return undefined;
}

function withoutMarks(message: ProviderMessage): ProviderMessage {
  if (!Array.isArray(message.content)) return message;
  return {
    ...message,
    content: message.content.map((block) => {
      if (!isRecord(block) || block.cache_control === undefined) return block;
      const { cache_control: _removed, ...rest } = block;
      return rest;
    }),
  };
}

export interface BreakpointPlan {
  /** View messages the gateway changed, by index in the view. */
  readonly replaced: Map<number, ProviderMessage>;
  /** Breakpoints in the request once written: system and tools, the view's, the gateway's. */
  readonly total: number;
}

/**
 * Anthropic cache breakpoints for a folded view: one at the sealed boundary (so the folded prefix
 * is read from the cache), the client's own kept where the limit of four allows (the newest
 * first), and one on the last message when the client placed none there. System and tools keep
 * theirs untouched: the gateway never changes them.
 */
export function placeBreakpoints(
  view: readonly ProviderMessage[],
  sealedBoundary: number | null,
  system: unknown,
  tools: unknown,
): BreakpointPlan {
  const replaced = new Map<number, ProviderMessage>();
  const fixed = marks(system) + marks(tools);
  const clientMarked: number[] = [];
  view.forEach((message, index) => {
    if (marks(message.content) > 0) clientMarked.push(index);
  });
  let total = fixed + clientMarked.reduce((sum, index) => sum + marks(view[index].content), 0);
  const wantBoundary =
    sealedBoundary !== null &&
    sealedBoundary >= 0 &&
    sealedBoundary < view.length &&
    !clientMarked.includes(sealedBoundary);
  const last = view.length - 1;
  const wantTail = last >= 0 && clientMarked.length === 0 && last !== sealedBoundary;
  const wanted = (wantBoundary ? 1 : 0) + (wantTail ? 1 : 0);
  // make room for the boundary by dropping the client's oldest marks in messages
  const drop = clientMarked.slice();
  while (wantBoundary && total + 1 > ANTHROPIC_MAX_BREAKPOINTS && drop.length > 0) {
    const index = drop.shift() as number;
    total -= marks(view[index].content);
    replaced.set(index, withoutMarks(view[index]));
  }
  const laterLongTtl = (from: number) => view.slice(from + 1).some((message) => hasLongTtl(message.content));
  if (wantBoundary && total < ANTHROPIC_MAX_BREAKPOINTS) {
    const marked = withMark(view[sealedBoundary], laterLongTtl(sealedBoundary) ? '1h' : '5m');
    if (marked !== undefined) {
      replaced.set(sealedBoundary, marked);
      total++;
    }
  }
  if (wantTail && wanted > 0 && total < ANTHROPIC_MAX_BREAKPOINTS) {
    const marked = withMark(replaced.get(last) ?? view[last], '5m');
    if (marked !== undefined) {
      replaced.set(last, marked);
      total++;
    }
  }
  return { replaced, total };
}
