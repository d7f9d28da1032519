// Our replay reports the reference scorer's figures for every baseline. The scorer's own output on
// these bundled sessions is recorded in test/fixtures/scorer-reference (see scorer-reference.ts).
import { describe, expect, it } from 'vitest';
import {
  addCounters,
  BASELINE_STRATEGIES,
  compareStrategies,
  emptyCounters,
  summaryRow,
  type BaselineMessage,
  type ReplayCounters,
} from '../../src/baselines/index.ts';
import { readFixture } from '../helpers/fixtures.ts';
import {
  BASELINES,
  PARITY_CEILINGS,
  PARITY_SESSIONS,
  RECORD_COMMAND,
  readScorerReference,
} from './scorer-reference.ts';

// The scorer's --json field names, and ours (without abbreviations).
const FIELDS: Record<string, string> = {
  cost: 'cost',
  costVsRaw: 'costVsRaw',
  cachePct: 'cachePercent',
  maxTokens: 'maxTokens',
  overflowCalls: 'overCeilingCalls',
  calls: 'calls',
  retentionPct: 'retentionPercent',
  needles: 'needles',
  farRetentionPct: 'farRetentionPercent',
  farNeedles: 'farNeedles',
  contextPct: 'contextPercent',
  farContextPct: 'farContextPercent',
  reusePct: 'reusePercent',
  farReusePct: 'farReusePercent',
  reuseNeedles: 'reuseNeedles',
  farReuseNeedles: 'farReuseNeedles',
  costVsFloor: 'costVsFloor',
  errors: 'errors',
  liveWholePct: 'liveWholePercent',
  liveCalls: 'liveCalls',
};

describe('session replay against the reference scorer', () => {
  const { summaries } = readScorerReference();
  const sessions = PARITY_SESSIONS.map((file) => readFixture<BaselineMessage>(file).messages);
  const strategies = BASELINES.map((name) => BASELINE_STRATEGIES.find((strategy) => strategy.name === name)!);

  it('has the scorer figures recorded for every ceiling and baseline', () => {
    expect(summaries.map((entry) => entry.ceiling)).toEqual(PARITY_CEILINGS);
    for (const entry of summaries) expect(Object.keys(entry.summary).sort()).toEqual([...BASELINES].sort());
  });

  it.each(PARITY_CEILINGS)('reports the scorer figures for every baseline at ceiling %i', (ceiling) => {
    const reference = summaries.find((entry) => entry.ceiling === ceiling)!;
    // each session on its own, then added up over the sessions, as the scorer sums its corpus
    const totals = new Map<string, ReplayCounters>(BASELINES.map((name) => [name, emptyCounters()]));
    for (const messages of sessions)
      for (const { name, counters } of compareStrategies(messages, strategies, { ceiling }))
        totals.set(name, addCounters(totals.get(name)!, counters));
    for (const strategy of BASELINES) {
      const summary = summaryRow(totals.get(strategy)!, totals.get('raw')!.cost) as unknown as Record<string, unknown>;
      for (const [theirs, mine] of Object.entries(FIELDS))
        expect(summary[mine], `${strategy} ${theirs} (recorded by \`${RECORD_COMMAND}\`)`).toEqual(
          reference.summary[strategy][theirs],
        );
    }
    expect(totals.get('raw')!.floor).toBeCloseTo(reference.floor, 4);
  });
});
