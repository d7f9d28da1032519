// Heap one strategy instance keeps alive after a long session: the synthetic session of the scale
// bench driven call by call (prepare() once per turn, as a host does) until it holds `messages`
// messages, then the settled heap with the strategy alive less the settled heap without it. The
// history stays alive through both readings, so only what the strategy itself holds is counted.
import { countTokens } from '../../src/tokens/index.ts';
import { createMessageTokenCounter, resetSharedTokenMemo } from '../../src/baselines/message-tokens.ts';
import { CLOCK_STEP_MILLISECONDS } from '../../src/baselines/session-replay.ts';
import type { BaselineMessage, Strategy, StrategyDefinition } from '../../src/baselines/types.ts';
import { settledHeapBytes, settledHeapBytesHolding } from './heap.ts';
import { sessionOpening, syntheticTurn } from '../../test/helpers/workloads/synthetic-session.ts';

export interface SessionHeapRow {
  readonly strategy: string;
  /** Messages in the history at the end (the first turn that reaches the target). */
  readonly messages: number;
  readonly calls: number;
  readonly retainedHeapMegabytes: number;
}

/** Drives one instance through `messages` messages and returns what it retains. */
function drive(
  definition: StrategyDefinition,
  messages: number,
  ceiling: number,
  history: BaselineMessage[],
): { strategy: Strategy; calls: number } {
  let clock = 0;
  const strategy = definition.create({ ceiling, countTokens, now: () => clock });
  const harness = createMessageTokenCounter();
  let measured: number | undefined;
  let calls = 0;
  for (let turn = 0; history.length < messages; turn++) {
    const [first, ...rest] = syntheticTurn(turn);
    if (first.role === 'user') history.push(first);
    clock += CLOCK_STEP_MILLISECONDS;
    measured = harness.viewTokens(strategy.prepare(history, { measuredInputTokens: measured }).messages);
    calls++;
    history.push(...(first.role === 'user' ? rest : [first, ...rest]));
  }
  // the next call reads the whole history, so the instance has seen every message
  clock += CLOCK_STEP_MILLISECONDS;
  strategy.prepare(history, { measuredInputTokens: measured });
  return { strategy, calls: calls + 1 };
}

export function measureSessionHeap(definition: StrategyDefinition, messages: number, ceiling: number): SessionHeapRow {
  resetSharedTokenMemo();
  const history: BaselineMessage[] = sessionOpening();
  let driven: { strategy: Strategy; calls: number } | null = drive(definition, messages, ceiling, history);
  const calls = driven.calls;
  const withStrategy = settledHeapBytesHolding(driven);
  driven = null;
  const without = settledHeapBytes();
  // read after both measurements, so the history is alive for both
  return {
    strategy: definition.name,
    messages: history.length,
    calls,
    retainedHeapMegabytes: +((withStrategy - without) / 2 ** 20).toFixed(1),
  };
}
