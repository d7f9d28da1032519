/**
 * Golden replays of three real sessions (bundled in test/fixtures/sessions) (SWE-bench agent, Claude Code console, tau-bench
 * airline): every prepare() call's view hash and epoch reason, and the full final view, must
 * match test/golden/<id>.json byte for byte. An intended change to the engine's output is
 * recorded by re-running `npx tsx scripts/update-golden.ts` and reviewing the diff.
 */
import { describe, expect, it } from 'vitest';
import { GOLDEN_SESSIONS, goldenPath, readGolden, replayGolden, UPDATE_COMMAND } from '../helpers/golden.ts';

describe('golden replays of real sessions', () => {
  it.each(GOLDEN_SESSIONS)('%s', (id) => {
    const golden = readGolden(id);
    if (!golden) throw new Error(`no golden file at ${goldenPath(id)}: run \`${UPDATE_COMMAND}\` to create it`);
    const replay = replayGolden(id);
    const hint = `If this change to the engine's output was intended, run \`${UPDATE_COMMAND}\` and review the diff of test/golden/.`;

    const firstDifferent = replay.calls.findIndex(
      (call, n) => golden.calls[n]?.sha256 !== call.sha256 || golden.calls[n]?.epochReason !== call.epochReason,
    );
    if (firstDifferent >= 0 || replay.calls.length !== golden.calls.length) {
      const at = firstDifferent >= 0 ? firstDifferent : Math.min(replay.calls.length, golden.calls.length);
      const expected = golden.calls[at];
      const actual = replay.calls[at];
      const changed = replay.calls.filter((call, n) => golden.calls[n]?.sha256 !== call.sha256).length;
      throw new Error(
        `${id}: ${changed} of ${golden.calls.length} views changed (now ${replay.calls.length} calls); the first at call ${at} ` +
          `(history length ${actual?.historyLength ?? expected?.historyLength}): epoch reason ${expected?.epochReason ?? 'none'} → ${actual?.epochReason ?? 'none'}, ` +
          `view sha256 ${expected?.sha256.slice(0, 12) ?? '-'} → ${actual?.sha256.slice(0, 12) ?? '-'}.\n${hint}`,
      );
    }
    expect(JSON.stringify(replay.finalView), `${id}: final view differs. ${hint}`).toBe(
      JSON.stringify(golden.finalView),
    );
  });
});
