import { describe, expect, it } from 'vitest';
import {
  CLOSET_MARK,
  prepareCloset,
  wordsAround,
  type ClosetOccurrence,
  type LineWindow,
} from '../../src/closet/render-closet.ts';

/** A whole line as the window around a value. */
const whole = (text: string): LineWindow => ({ text, line: text, left: 0, right: text.length });
const sighting = (value: string, messageIndex: number): ClosetOccurrence => ({ value, kind: 'hash', messageIndex });

describe('closet conservation unit', () => {
  it('keeps the line around each value, newest first, one copy of a line that holds several values', () => {
    const lines: Record<string, string> = {
      '2f5f623': 'index 2f5f623..aac11e1 100644',
      aac11e1: 'index 2f5f623..aac11e1 100644',
      '6135cf9': 'commit 6135cf9 feat: add the expert council command',
    };
    const render = prepareCloset([sighting('6135cf9', 2), sighting('2f5f623', 3), sighting('aac11e1', 3)], (value) =>
      whole(lines[value]),
    );
    const kept: NonNullable<Parameters<typeof render>[0]['kept']> = [];
    const closet = render({ budgetTokens: 400, isPresent: () => false, kept });
    expect(closet.split('\n')).toEqual([
      `${CLOSET_MARK} index 2f5f623..aac11e1 100644`,
      `${CLOSET_MARK} commit 6135cf9 feat: add the expert council command`,
    ]);
    expect(kept.map((entry) => entry.value).sort()).toEqual(['2f5f623', '6135cf9', 'aac11e1']);
  });

  it('keeps a value bare only when its line does not fit, and drops what the view shows or holds newer', () => {
    const long = `the release notes mention 9c1e2d4f7a after a long explanation ${'of many things '.repeat(8)}`;
    const render = prepareCloset(
      [sighting('9c1e2d4f7a', 1), sighting('abcdef1234', 2), sighting('0123456abc', 3)],
      (value) => (value === '9c1e2d4f7a' ? wordsAround(long, value) : whole(`seen ${value} here`)),
    );
    // the newest value's line fits; the older one's does not, so it stays bare
    const tight = render({ budgetTokens: 24, isPresent: (value) => value === 'abcdef1234' });
    expect(tight.split('\n')).toEqual([`${CLOSET_MARK} seen 0123456abc here`, `${CLOSET_MARK} 9c1e2d4f7a`]);
    // a line the view already shows is not repeated
    expect(
      render({ budgetTokens: 400, isPresent: () => false, isShown: (line) => line.includes('abcdef1234') }),
    ).not.toContain('abcdef1234');
  });

  it('takes the line of the last occurrence in a text', () => {
    expect(wordsAround('first 0123456abc\nthen 0123456abc again', '0123456abc')?.text).toBe('then 0123456abc again');
  });

  it('shows windows that overlap on one source line as one closet line, each value in its own words', () => {
    const results = [1, 2, 3].map(
      (n) => `{"title":"Result number ${n} on the forum","url":"https://example.org/threads/${n}0${n}"}`,
    );
    const line = `Links: [${results.join(',')}]`;
    const urls = [1, 2, 3].map((n) => `https://example.org/threads/${n}0${n}`);
    const render = prepareCloset(
      urls.map((url) => ({ value: url, kind: 'url' as const, messageIndex: 1 })),
      (value) => wordsAround(line, value),
    );
    const closet = render({ budgetTokens: 400, isPresent: () => false });
    const shown = closet.split('\n');
    expect(shown).toHaveLength(1);
    // every value's own window is inside the one line, as the history holds it
    for (const url of urls) expect(shown[0]).toContain(wordsAround(line, url)!.text);
    expect(line).toContain(shown[0].slice(CLOSET_MARK.length + 1));
  });
});
