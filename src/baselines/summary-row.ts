import type { ReplayCounters } from './session-replay.ts';

/** One strategy's figures, rounded as the reference scorer rounds them (its --json summary, renamed without abbreviations). */
export interface SummaryRow {
  cost: number;
  costVsRaw: number | null;
  cachePercent: number;
  maxTokens: number;
  overCeilingCalls: number;
  calls: number;
  retentionPercent: number | null;
  needles: number;
  farRetentionPercent: number | null;
  farNeedles: number;
  contextPercent: number | null;
  farContextPercent: number | null;
  reusePercent: number | null;
  farReusePercent: number | null;
  reuseNeedles: number;
  farReuseNeedles: number;
  costVsFloor: number;
  /** Share of the calls whose live step fits in half the ceiling that showed it whole. */
  liveWholePercent: number | null;
  liveCalls: number;
  /** Calls whose view was smaller than the whole history. */
  foldedCalls: number;
  prepareMilliseconds: number;
  errors: number;
  /** Model calls the strategy made on its own (summaries), and their cost including output. */
  extraCalls: number;
  extraCost: number;
  /** cost + extraCost. */
  totalCost: number;
}

const rounded = (value: number, digits: number): number => +value.toFixed(digits);
const percent = (kept: number, of: number): number | null => (of ? rounded((100 * kept) / of, 1) : null);

export function summaryRow(counters: ReplayCounters, rawCost: number | undefined): SummaryRow {
  return {
    cost: rounded(counters.cost, 4),
    costVsRaw: rawCost ? rounded(counters.cost / rawCost, 3) : null,
    cachePercent: counters.tokens ? rounded((100 * counters.cachedTokens) / counters.tokens, 1) : 0,
    maxTokens: counters.maxTokens,
    overCeilingCalls: counters.overCeilingCalls,
    calls: counters.calls,
    retentionPercent: percent(counters.needlesKept, counters.needles),
    needles: counters.needles,
    farRetentionPercent: percent(counters.farNeedlesKept, counters.farNeedles),
    farNeedles: counters.farNeedles,
    contextPercent: percent(counters.contextKept, counters.needles),
    farContextPercent: percent(counters.farContextKept, counters.farNeedles),
    reusePercent: percent(counters.reuseKept, counters.reuse),
    farReusePercent: percent(counters.farReuseKept, counters.farReuse),
    reuseNeedles: counters.reuse,
    farReuseNeedles: counters.farReuse,
    costVsFloor: counters.floor ? rounded(counters.cost / counters.floor, 3) : 0,
    liveWholePercent: percent(counters.liveIntact, counters.liveCalls),
    liveCalls: counters.liveCalls,
    foldedCalls: counters.foldedCalls,
    prepareMilliseconds: rounded(counters.prepareMilliseconds, 0),
    errors: counters.errors,
    extraCalls: counters.extraCalls,
    extraCost: rounded(counters.extraCost, 4),
    totalCost: rounded(counters.cost + counters.extraCost, 4),
  };
}
