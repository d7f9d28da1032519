import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench } from '../../bench/run.ts';
import { corpusAvailable } from './scorer-reference.ts';

describe.skipIf(!corpusAvailable)('npm run bench -- --smoke', () => {
  const out = mkdtempSync(join(tmpdir(), 'warpfold-smoke-test-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes the three reports with the expected shape', async () => {
    const printed: string[] = [];
    const run = await runBench({ smoke: true, out, print: (text) => printed.push(text), log: () => {} });
    for (const name of ['replay', 'scenario', 'scale']) {
      expect(existsSync(join(out, `${name}.json`))).toBe(true);
      expect(readFileSync(join(out, `${name}.md`), 'utf8')).toMatch(/^# /);
    }

    const replay = JSON.parse(readFileSync(join(out, 'replay.json'), 'utf8'));
    expect(replay.kind).toBe('replay');
    expect(replay.files).toHaveLength(1);
    expect(replay.ceilings.map((entry: { ceiling: number }) => entry.ceiling)).toEqual([8000]);
    const summary = replay.ceilings[0].summary;
    for (const name of ['raw', 'truncate', 'mask', 'clear', 'sawtooth', 'sawtooth-lines', 'summarize']) {
      expect(summary[name]).toMatchObject({ calls: 48, cost: expect.any(Number), cachePercent: expect.any(Number), overCeilingCalls: expect.any(Number) });
    }
    expect(summary.raw.costVsRaw).toBe(1);
    expect(summary.raw.retentionPercent).toBe(100);
    expect(summary.summarize.extraCalls).toBeGreaterThan(0);
    const ran = Object.keys(summary);
    const skipped = replay.skipped.map((entry: { name: string }) => entry.name);
    expect([...ran, ...skipped]).toContain('warpfold');

    expect(run.scenario.runs.every((entry) => entry.dialect === 'openai' && entry.ceiling === 8000 && entry.calls === 16)).toBe(true);
    expect(run.scale.rows.map((row) => row.turns)).toEqual(expect.arrayContaining([20, 100]));
    expect(printed.join('\n')).toContain('## Session replay');
  });
});
