import { describe, expect, it } from 'vitest';
import { CLOSET_MARK, prepareCloset, type ClosetOccurrence } from '../../src/closet/render-closet.ts';

const occurrence = (value: string, source: string, messageIndex: number): ClosetOccurrence => ({
  value,
  kind: 'hash',
  source,
  messageIndex,
  lane: 'tool',
});

describe('closet windows', () => {
  it('shows a line of raw words that holds several values once, and counts every value it holds', () => {
    const header = 'index 2f5f623..aac11e1 100644';
    const other = 'commit 6135cf9 feat: add the expert council command';
    const raw = [header, other].join('\n');
    const render = prepareCloset(
      [occurrence('2f5f623', header, 3), occurrence('aac11e1', header, 3), occurrence('6135cf9', other, 4)],
      0,
      5,
      () => raw,
    );
    const kept: NonNullable<Parameters<typeof render>[0]['kept']> = [];
    const closet = render({ budgetTokens: 400, isPresent: () => false, kept });
    const lines = closet.split('\n');
    expect(lines.filter((line) => line === `${CLOSET_MARK} ${header}`)).toHaveLength(1);
    expect(lines).toContain(`${CLOSET_MARK} ${other}`);
    // no value is repeated bare after the window that shows it
    expect(lines.every((line) => line.startsWith(CLOSET_MARK))).toBe(true);
    expect(lines).toHaveLength(2);
    expect(kept.map((entry) => entry.value).sort()).toEqual(['2f5f623', '6135cf9', 'aac11e1']);
  });
});
