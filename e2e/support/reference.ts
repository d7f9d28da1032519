/**
 * What the library says about each model call of a session, computed here in Node with the
 * library itself (FoldSession, the o200k counter, the cost model), independently of the
 * inspector's code, under the inspector's default settings and the benchmark's conventions:
 * a call before each assistant message, 20 s apart, the previous prompt's size as telemetry.
 */
import { FoldSession, type ProviderMessage, type TokenCounter } from '../../src/index.ts';
import { callCost, countTokens, leadingIdenticalTokens, renderMessage } from '../../src/tokens/index.ts';

export interface ReferenceCall {
  readonly historyLength: number;
  readonly viewMessages: number;
  readonly viewTokens: number;
  readonly rawTokens: number;
  readonly cachedTokens: number;
  readonly sharedPrefixMessages: number;
  readonly cumulativeCost: number;
  readonly epochReason: string | null;
  readonly cacheHot: boolean;
}

/** `planner` is the session's own counter: o200k in the inspector, the built-in estimator (`null`) on the edge endpoint. */
export function referenceCalls(
  history: readonly ProviderMessage[],
  ceiling = 8_000,
  planner: TokenCounter | null = countTokens,
): ReferenceCall[] {
  let clock = 0;
  const session = new FoldSession({
    pressureCeiling: ceiling,
    ...(planner ? { countTokens: planner } : {}),
    now: () => clock,
    freeze: { ttlMs: 300_000 },
  });
  const calls: ReferenceCall[] = [];
  let previous: string[] = [];
  let measured: number | undefined;
  let cumulative = 0;
  for (let index = 1; index < history.length; index++) {
    if ((history[index] as { role?: string }).role !== 'assistant') continue;
    clock += 20_000;
    const slice = history.slice(0, index);
    const outcome = session.prepare(slice, measured === undefined ? {} : { measuredInputTokens: measured });
    const parts = outcome.messages.map((message) => renderMessage(message as never));
    const sizes = parts.map((part) => countTokens(part));
    const total = sizes.reduce((sum, size) => sum + size, 0);
    const cost = callCost({
      totalTokens: total,
      cachedPrefixTokens: leadingIdenticalTokens(previous, parts, sizes),
      model: 'sonnet-class',
      writeBelowMinimum: true,
    });
    let shared = 0;
    while (shared < parts.length && shared < previous.length && parts[shared] === previous[shared]) shared++;
    cumulative += cost.inputCost;
    calls.push({
      historyLength: index,
      viewMessages: outcome.messages.length,
      viewTokens: total,
      rawTokens: slice.reduce((sum, message) => sum + countTokens(renderMessage(message as never)), 0),
      cachedTokens: cost.cacheReadTokens,
      sharedPrefixMessages: shared,
      cumulativeCost: cumulative,
      epochReason: outcome.stats.epochReason ?? null,
      cacheHot: outcome.cacheHot,
    });
    previous = parts;
    measured = total;
  }
  return calls;
}
