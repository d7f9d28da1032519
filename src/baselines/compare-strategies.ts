import { replaySession, type ReplayCounters, type ReplayOptions } from './session-replay.ts';
import { summaryRow, type SummaryRow } from './summary-row.ts';
import type { BaselineMessage, StrategyDefinition } from './types.ts';

export interface StrategyFigures {
  readonly name: string;
  /** The raw counts, to add up over sessions with `addCounters`. */
  readonly counters: ReplayCounters;
  /** The scorer's figures for this session; `costVsRaw` is set when a strategy named "raw" ran too. */
  readonly summary: SummaryRow;
}

/** One session replayed through each strategy, each from a fresh instance, under the same ceiling, price and clock. */
export function compareStrategies(
  messages: readonly BaselineMessage[],
  strategies: readonly StrategyDefinition[],
  options: ReplayOptions,
): StrategyFigures[] {
  const replayed = strategies.map((definition) => ({
    name: definition.name,
    counters: replaySession(messages, definition, options),
  }));
  const rawCost = replayed.find((entry) => entry.name === 'raw')?.counters.cost;
  return replayed.map(({ name, counters }) => ({ name, counters, summary: summaryRow(counters, rawCost) }));
}
