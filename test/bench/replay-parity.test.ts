// Our replay reports the reference scorer's figures for every baseline. The scorer's own output on
// these bundled sessions is recorded in test/fixtures/scorer-reference (see scorer-reference.ts).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runReplay } from '../../bench/replay.ts';
import { FIXTURE_SESSIONS_DIR } from '../helpers/fixtures.ts';
import { BASELINES, PARITY_CEILINGS, PARITY_SESSIONS, RECORD_COMMAND, readScorerReference } from './scorer-reference.ts';

// The scorer's --json field names, and ours (without abbreviations).
const FIELDS: Record<string, string> = {
  cost: 'cost', costVsRaw: 'costVsRaw', cachePct: 'cachePercent', maxTokens: 'maxTokens', overflowCalls: 'overCeilingCalls', calls: 'calls',
  retentionPct: 'retentionPercent', needles: 'needles', farRetentionPct: 'farRetentionPercent', farNeedles: 'farNeedles', contextPct: 'contextPercent',
  farContextPct: 'farContextPercent', reusePct: 'reusePercent', farReusePct: 'farReusePercent', reuseNeedles: 'reuseNeedles', farReuseNeedles: 'farReuseNeedles',
  costVsFloor: 'costVsFloor', errors: 'errors',
};

describe('session replay against the reference scorer', () => {
  const corpus = mkdtempSync(join(tmpdir(), 'warpfold-parity-'));
  for (const file of PARITY_SESSIONS) copyFileSync(join(FIXTURE_SESSIONS_DIR, file), join(corpus, file));
  afterAll(() => rmSync(corpus, { recursive: true, force: true }));
  const { summaries } = readScorerReference();

  it('has the scorer figures recorded for every ceiling and baseline', () => {
    expect(summaries.map((entry) => entry.ceiling)).toEqual(PARITY_CEILINGS);
    for (const entry of summaries) expect(Object.keys(entry.summary).sort()).toEqual([...BASELINES].sort());
  });

  it.each(PARITY_CEILINGS)('reports the scorer figures for every baseline at ceiling %i', async (ceiling) => {
    const reference = summaries.find((entry) => entry.ceiling === ceiling)!;
    const ours = await runReplay({ corpus, ceilings: [ceiling], strategies: BASELINES });
    const summary = ours.ceilings[0].summary as unknown as Record<string, Record<string, unknown>>;
    for (const strategy of BASELINES) {
      for (const [theirs, mine] of Object.entries(FIELDS)) expect(summary[strategy][mine], `${strategy} ${theirs} (recorded by \`${RECORD_COMMAND}\`)`).toEqual(reference.summary[strategy][theirs]);
    }
    expect(ours.ceilings[0].floor).toBeCloseTo(reference.floor, 4);
  });
});
