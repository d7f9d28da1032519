import { describe, expect, it } from 'vitest';
import {
  CLOSET_MARK,
  DEFAULT_WINDOW_FRACTION,
  prepareCloset,
  type ClosetOccurrence,
} from '../../src/closet/render-closet.ts';
import { DEFAULT_FOLD_CONFIG, foldConfigForCeiling, TIGHT_FOLD_CONFIG } from '../../src/fold/fold-config.ts';

const lines = [
  'commit 6135cf9 feat: add the expert council command to the planning toolbar',
  'index 2f5f623..aac11e1 100644 --- a/src/planner/council.ts +++ b/src/planner/council.ts',
  'Deploying build 9c41d07e to the staging cluster after the migration completed cleanly',
];
const values = ['6135cf9', '2f5f623', '9c41d07e'];
const render = prepareCloset(
  values.map(
    (value, i): ClosetOccurrence => ({ value, kind: 'hash', source: lines[i], messageIndex: i, lane: 'tool' }),
  ),
  0,
  3,
  () => lines.join('\n'),
);
const windowCount = (closet: string) =>
  closet.split('\n').filter((line) => !line.includes(' · ') && line.startsWith(CLOSET_MARK)).length;

describe('closet window share', () => {
  it('gives windows only the share it is told to', () => {
    const none = render({ budgetTokens: 200, isPresent: () => false, windowFraction: 0 });
    expect(windowCount(none)).toBe(0);
    for (const value of values) expect(none).toContain(value);
    const all = render({ budgetTokens: 200, isPresent: () => false, windowFraction: 1 });
    expect(windowCount(all)).toBe(3);
    for (const line of lines) expect(all).toContain(line.slice(0, 20));
    // absent, the share is the default
    expect(render({ budgetTokens: 200, isPresent: () => false })).toBe(
      render({ budgetTokens: 200, isPresent: () => false, windowFraction: DEFAULT_WINDOW_FRACTION }),
    );
  });

  it('is set per ceiling: more windows in the roomy profile, interpolated between', () => {
    expect(foldConfigForCeiling(16_000).closetWindowFraction).toBe(DEFAULT_FOLD_CONFIG.closetWindowFraction);
    expect(foldConfigForCeiling(8_000).closetWindowFraction).toBe(TIGHT_FOLD_CONFIG.closetWindowFraction);
    const between = foldConfigForCeiling(11_000).closetWindowFraction!;
    expect(between).toBeLessThan(DEFAULT_FOLD_CONFIG.closetWindowFraction!);
    expect(between).toBeGreaterThan(TIGHT_FOLD_CONFIG.closetWindowFraction!);
  });
});
