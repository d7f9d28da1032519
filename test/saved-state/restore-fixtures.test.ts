/**
 * The recorded calls of issue 29 (test/fixtures/restore): a snapshot the library wrote and its own
 * decoder refused, and restores that answered a changed history differently from the live session.
 */
import { readFileSync } from 'node:fs';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, FoldStateError, type FoldPrepareOptions, type ProviderMessage } from '../../src/index.ts';
import { answer, difference } from '../helpers/compare-answers.ts';

interface RecordedCase {
  readonly ceiling: number;
  readonly snapAt: number;
  readonly snap: string;
  readonly messages: ProviderMessage[];
  readonly calls: ReadonlyArray<{
    readonly clock: number;
    readonly popts: FoldPrepareOptions;
    readonly h: readonly number[];
  }>;
}

// the o200k counter, remembered: a restore at every call re-counts the whole history
const counted = new Map<string, number>();
const countTokens = (text: string) => counted.get(text) ?? counted.set(text, o200k(text)).get(text)!;

const FIXTURES = new URL('../fixtures/restore/', import.meta.url);
const readCase = (name: string) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')) as RecordedCase;

/**
 * Replays a case; after every call a session restored from the live one's snapshot must take the
 * next call exactly as the live one does (from call `checkedFrom` on: a restore re-reads the whole
 * history). One session is restored once, after call `restoredAt`, and followed to the end.
 */
function replay(recorded: RecordedCase, restoredAt: number, checkedFrom = 0) {
  let clock = 0;
  const options = { pressureCeiling: recorded.ceiling, countTokens, now: () => clock };
  const live = new FoldSession(options);
  let snapshot = live.snapshot();
  let followed: FoldSession | null = null;
  const reasons = new Set<string>();
  recorded.calls.forEach((call, k) => {
    clock = call.clock;
    const history = call.h.map((i) => recorded.messages[i]);
    const restored = k >= checkedFrom ? new FoldSession({ ...options, restoredState: snapshot }) : null;
    const expected = answer(() => live.prepare(history, call.popts));
    if (restored)
      expect(
        difference(
          answer(() => restored.prepare(history, call.popts)),
          expected,
        ),
        `call ${k + 1}, restored after call ${k}`,
      ).toBeUndefined();
    if (followed)
      expect(
        difference(
          answer(() => followed!.prepare(history, call.popts)),
          expected,
        ),
        `call ${k + 1}, restored after call ${restoredAt}`,
      ).toBeUndefined();
    const reason = expected.startsWith('threw')
      ? undefined
      : (JSON.parse(expected) as { stats: { epochReason?: string } }).stats.epochReason;
    if (reason) reasons.add(reason);
    snapshot = live.snapshot();
    // what the session wrote, its own decoder reads
    expect(
      () => new FoldSession({ ...options, restoredState: snapshot }),
      `snapshot after call ${k + 1}`,
    ).not.toThrow();
    if (k + 1 === restoredAt) followed = new FoldSession({ ...options, restoredState: snapshot });
  });
  return { live, reasons };
}

describe('recorded restore cases (issue 29)', () => {
  it('self-rejected snapshot: the recorded state is refused, and the session now writes one that restores', () => {
    const recorded = readCase('self-rejected-snapshot-20270997-24.json');
    const clock = 0;
    expect(
      () =>
        new FoldSession({
          pressureCeiling: recorded.ceiling,
          countTokens,
          now: () => clock,
          restoredState: recorded.snap,
        }),
    ).toThrow(FoldStateError);
    replay(recorded, recorded.snapAt - 4);
  });

  it.each(['restore-divergence-20251711-662.json', 'restore-divergence-20251856-173.json'])(
    '%s: restore-then-continue answers as continue, epochReason included',
    (name) => {
      const recorded = readCase(name);
      const { reasons } = replay(recorded, recorded.snapAt, recorded.snapAt - 100);
      // the changed history is what the live session calls a boundary change
      expect(reasons.has('boundary-changed')).toBe(true);
      expect(reasons.has('restored-mismatch')).toBe(false);
    },
  );
});
