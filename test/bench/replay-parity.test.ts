import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runReplay } from '../../bench/replay.ts';
import { CORPUS_PATH, corpusAvailable, SCORER_PATH, scorerAvailable } from './scorer-reference.ts';

// The scorer's --json field names, and ours (without abbreviations).
const FIELDS: Record<string, string> = {
  cost: 'cost', costVsRaw: 'costVsRaw', cachePct: 'cachePercent', maxTokens: 'maxTokens', overflowCalls: 'overCeilingCalls', calls: 'calls',
  retentionPct: 'retentionPercent', needles: 'needles', farRetentionPct: 'farRetentionPercent', farNeedles: 'farNeedles', contextPct: 'contextPercent',
  farContextPct: 'farContextPercent', reusePct: 'reusePercent', farReusePct: 'farReusePercent', reuseNeedles: 'reuseNeedles', farReuseNeedles: 'farReuseNeedles',
  costVsFloor: 'costVsFloor', errors: 'errors',
};
const SESSIONS = ['msa-ds-reasoner-dev-sqlfluff__sqlfluff-2419.json', 'sweagent-gpt4-pydicom__pydicom-1458.json', 'tau-airline-gpt-4o-task02-trial1.json'];
const STRATEGIES = ['raw', 'truncate', 'mask', 'clear', 'sawtooth', 'sawtooth-lines'];

describe.skipIf(!scorerAvailable || !corpusAvailable)('session replay against the reference scorer', () => {
  const corpus = mkdtempSync(join(tmpdir(), 'warpfold-parity-'));
  afterAll(() => rmSync(corpus, { recursive: true, force: true }));

  it.each([16_000, 8_000])('reports the scorer figures for every baseline at ceiling %i', async (ceiling) => {
    for (const file of SESSIONS) copyFileSync(join(CORPUS_PATH, file), join(corpus, file));
    const jsonPath = join(corpus, `scorer-${ceiling}.out`);
    execFileSync(process.execPath, [SCORER_PATH, '--corpus', corpus, '--ceiling', String(ceiling), '--strategies', STRATEGIES.join(','), '--json', jsonPath], { cwd: process.cwd(), stdio: 'pipe' });
    const reference = JSON.parse(readFileSync(jsonPath, 'utf8')) as { floor: number; summary: Record<string, Record<string, unknown>> };
    const ours = await runReplay({ corpus, ceilings: [ceiling], strategies: STRATEGIES });
    const summary = ours.ceilings[0].summary as unknown as Record<string, Record<string, unknown>>;
    for (const strategy of STRATEGIES) {
      for (const [theirs, mine] of Object.entries(FIELDS)) expect(summary[strategy][mine], `${strategy} ${theirs}`).toEqual(reference.summary[strategy][theirs]);
    }
    expect(ours.ceilings[0].floor).toBeCloseTo(reference.floor, 4);
  });
});
