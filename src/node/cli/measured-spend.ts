import type { ModelPrice } from '../../tokens/price-table.ts';
import type { RecordedCall } from '../../transcripts/types.ts';

/** What a session's recorded usage adds up to: tokens as the provider counted them, and their cost. */
export interface MeasuredSpend {
  readonly calls: number;
  /** The largest input (fresh + cache reads + cache writes) of one call. */
  readonly peakInputTokens: number;
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  /** All cache writes; `cacheWriteOneHourTokens` of them at the 1-hour price. */
  readonly cacheWriteTokens: number;
  readonly cacheWriteOneHourTokens: number;
  readonly outputTokens: number;
  /** USD at the row's prices; null when the model is unpriced. */
  readonly inputCost: number | null;
  readonly outputCost: number | null;
  readonly totalCost: number | null;
}

/** Sums recorded calls (each counted once) and prices them: fresh input, cache reads, 5-minute and 1-hour writes, output. */
export function measuredSpend(calls: readonly RecordedCall[], price: ModelPrice | null): MeasuredSpend | null {
  if (calls.length === 0) return null;
  const sum = (pick: (call: RecordedCall) => number) => calls.reduce((total, call) => total + pick(call), 0);
  const inputTokens = sum((call) => call.inputTokens);
  const cacheReadTokens = sum((call) => call.cacheReadTokens);
  const cacheWriteTokens = sum((call) => call.cacheWriteTokens);
  const cacheWriteOneHourTokens = sum((call) => Math.min(call.cacheWriteOneHourTokens, call.cacheWriteTokens));
  const outputTokens = sum((call) => call.outputTokens);
  const figures = {
    calls: calls.length,
    peakInputTokens: calls.reduce((peak, call) => Math.max(peak, call.measuredInputTokens), 0),
    inputTokens,
    cacheReadTokens,
    cacheWriteTokens,
    cacheWriteOneHourTokens,
    outputTokens,
  };
  if (price === null) return { ...figures, inputCost: null, outputCost: null, totalCost: null };
  const input = price.inputPerMillion;
  const inputCost =
    (inputTokens * input +
      cacheReadTokens * input * price.cacheReadMultiplier +
      (cacheWriteTokens - cacheWriteOneHourTokens) * input * price.cacheWriteMultiplier +
      cacheWriteOneHourTokens * input * price.cacheWriteOneHourMultiplier) /
    1e6;
  const outputCost = (outputTokens * price.outputPerMillion) / 1e6;
  return { ...figures, inputCost, outputCost, totalCost: inputCost + outputCost };
}

/** Input tokens of the first recorded call of each model turn: what each replayed call is calibrated to. */
export function recordedInputByTurn(calls: readonly RecordedCall[]): Map<number, number> {
  const byTurn = new Map<number, number>();
  for (const call of calls)
    if (call.turn !== undefined && !byTurn.has(call.turn)) byTurn.set(call.turn, call.measuredInputTokens);
  return byTurn;
}
