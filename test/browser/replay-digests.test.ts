// The cross-runtime golden replay in Chromium (vitest browser mode, Debian chromium): the same
// replay as test/runtimes/replay-digests.test.ts, against the same digest file.
import { describe, expect, it } from 'vitest';
import { checkRuntime, EXPECTED } from '../runtimes/check-runtime.ts';

describe('cross-runtime golden replay: Chromium', () => {
  it('replays every fixture session to the recorded digest of every view', () => {
    expect(navigator.userAgent).toMatch(/Chrome\//);
    expect(typeof document).toBe('object');
    const check = checkRuntime();
    expect(check.differences).toEqual([]);
    expect(check.total).toBe(EXPECTED.total);
    expect(check.underFolded).toEqual([]);
  });
});
