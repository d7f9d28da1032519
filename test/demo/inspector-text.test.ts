// The inspector's wording helpers: one message numbering, titles in the user's words, no device
// names as files, no character cut in half, and a timeline scale that keeps the ceiling readable.
import { describe, expect, it } from 'vitest';
import { isDeviceName, userWords } from '../../demo/src/episodes/episode-text.ts';
import { clipText } from '../../demo/src/ui/clip-text.ts';
import { messageNumber, messageRange } from '../../demo/src/ui/dom.ts';
import { timelineScale } from '../../demo/src/ui/charts.ts';

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('inspector wording', () => {
  it('numbers raw messages from 1, as the fold header written into the view does', () => {
    expect(messageNumber(0)).toBe(1);
    // a band over raw indexes [2, 108) is the header's "messages 3–108"
    expect(messageRange(2, 108)).toBe('messages 3–108');
  });

  it('reads Claude Code markup as the words the user typed', () => {
    expect(
      userWords(
        '<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>src/app.ts</command-args>',
      ),
    ).toBe('/review src/app.ts');
    expect(
      userWords(
        '<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n<summary>Background command "npm test" completed</summary>\n</task-notification>',
      ),
    ).toBe('task notification: Background command "npm test" completed');
    expect(
      userWords('<system-reminder>The user opened a file.</system-reminder>Fix the failing test in <b>src/a.ts</b>'),
    ).toBe('Fix the failing test in src/a.ts');
    expect(userWords('if a < b and c > d, swap them')).toBe('if a < b and c > d, swap them');
  });

  it('tells device names from files', () => {
    for (const device of ['nul', 'NUL', 'C:\\work\\nul', 'con', 'aux.txt', 'com1', '/dev/null', '/dev/stderr'])
      expect(isDeviceName(device), device).toBe(true);
    for (const file of ['null.ts', 'src/nul/index.ts', 'console.log', 'dev/null.md', 'annul'])
      expect(isDeviceName(file), file).toBe(false);
  });

  it('never cuts an emoji, a flag or a combined letter in half', () => {
    const text = `${'a'.repeat(199)}🎉👩‍👩‍👧🇫🇷e\u0301 and more`;
    for (const limit of [198, 199, 200, 201, 202, 203]) {
      const clipped = clipText(text, limit);
      expect(clipped, String(limit)).not.toMatch(loneSurrogate);
      expect(text.startsWith(clipped.replace(/…$/, '')), String(limit)).toBe(true);
    }
    expect(clipText(text, 200)).toBe(`${'a'.repeat(199)}🎉…`);
    expect(clipText(text, 201)).toBe(`${'a'.repeat(199)}🎉👩‍👩‍👧…`);
    expect(clipText('short', 200)).toBe('short');
  });

  it('scales the timeline so the ceiling sits at least a fifth of the way up on a 137k-token session', () => {
    // a session whose raw history grows to 137k tokens while the view stays under a 16k ceiling
    const calls = Array.from({ length: 90 }, (_, index) => ({
      rawTokens: 1_500 * (index + 1) + 2_000,
      viewTokens: Math.min(15_500, 1_500 * (index + 1) + 2_000),
    }));
    expect(Math.max(...calls.map((call) => call.rawTokens))).toBeGreaterThanOrEqual(137_000);
    const { top, rawClipped } = timelineScale(calls, 16_000);
    expect(rawClipped).toBe(true);
    expect(16_000 / top).toBeGreaterThanOrEqual(0.2);
    // a history that never outgrows the view keeps the raw scale
    expect(timelineScale([{ rawTokens: 12_000, viewTokens: 12_000 }], 16_000)).toEqual({
      top: 16_000 * 1.4,
      rawClipped: false,
    });
  });
});
