// The cross-runtime golden replay in Node. The same check runs in Chromium
// (test/browser/replay-digests.test.ts), workerd (test/workerd/replay-digests.test.ts) and Deno
// (test/deno/replay-digests.test.ts), all against test/runtimes/expected-digests.json.
// After an intended change to the engine's output: `npx tsx scripts/record-runtime-digests.ts`.
import { describe, expect, it } from 'vitest';
import { checkRuntime, EXPECTED } from './check-runtime.ts';
import { digestDifferences, replayDigests, RUNTIME_CEILINGS, viewDigest } from './runtime-replay.ts';
import { REPLAY_SESSIONS } from './sessions.ts';

describe('cross-runtime golden replay: Node', () => {
  it('replays every fixture session to the recorded digest of every view', () => {
    expect(typeof process.versions.node).toBe('string');
    const check = checkRuntime();
    expect(check.differences).toEqual([]);
    expect(check.total).toBe(EXPECTED.total);
    expect(check.underFolded).toEqual([]);
    expect(check.calls).toBeGreaterThan(900);
  });

  it('covers real sessions and synthetic ones in all three dialects, at both ceilings', () => {
    const ids = REPLAY_SESSIONS.map((session) => session.id);
    expect(ids.filter((id) => !/^(outage|marathon)-/.test(id)).length).toBeGreaterThanOrEqual(5);
    for (const dialect of ['openai', 'anthropic', 'gemini']) expect(ids).toContain(`marathon-${dialect}`);
    expect(
      REPLAY_SESSIONS.find((session) => session.id === 'marathon-gemini')!.messages.some(
        (message) => message.role === 'model',
      ),
    ).toBe(true);
    expect(
      REPLAY_SESSIONS.find((session) => session.id === 'marathon-anthropic')!.messages.some((message) =>
        JSON.stringify(message).includes('"tool_use"'),
      ),
    ).toBe(true);
    expect(EXPECTED.ceilings).toEqual([...RUNTIME_CEILINGS]);
    expect(RUNTIME_CEILINGS).toEqual([2_000, 8_000]);
  });

  it('names the session, ceiling and call where a view differs', () => {
    const session = REPLAY_SESSIONS.find((entry) => entry.id === 'sweagent-gpt4-pydicom__pydicom-1458')!;
    const actual = { [session.id]: { '2000': replayDigests(session, 2_000) } };
    const expected = structuredClone(actual);
    expect(digestDifferences(expected, actual)).toEqual([]);
    expected[session.id]['2000'].views[4] = '0000000000000000';
    expect(digestDifferences(expected, actual)).toEqual([
      `${session.id} at 2000: 12 calls expected, 12 replayed; first difference at call 4 (0000000000000000 → ${actual[session.id]['2000'].views[4]})`,
    ]);
    expect(digestDifferences({ other: {} }, actual)).toEqual([
      'other: not replayed',
      `${session.id}: not in the digest file`,
    ]);
  });

  it('digests tell views apart and are 64-bit hex', () => {
    expect(viewDigest('[]')).toMatch(/^[0-9a-f]{16}$/);
    expect(viewDigest('[{"role":"user","content":"a"}]')).not.toBe(viewDigest('[{"role":"user","content":"b"}]'));
  });
});
