/**
 * Restore-then-continue equals continue (issue 29). Real sessions in every dialect, at ceilings
 * from 4,000 to 128,000, replayed call by call while their history is edited behind the session's
 * back (a message duplicated, moved or dropped; a tool call's JSON arguments turned into an
 * object, or an object into JSON text). After every call the live session's snapshot must restore,
 * and the restored session must answer the next call exactly as the live one does (outcome bytes,
 * `epochReason` included, or the same refusal) and save the same state after it. One more session,
 * restored once, is followed to the end.
 *   RESTORE_SEED=<n> RESTORE_RUNS=<n> change the sample.
 */
import fc from 'fast-check';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, type FoldPrepareOptions } from '../../src/index.ts';
import { readFixtureSessions } from '../fuzz/fixture-script.ts';
import type { CanonicalScript } from '../helpers/canonical.ts';
import { DIALECTS, toDialect, type Dialect, type ProviderMessage } from '../helpers/dialects.ts';
import { preparePoints } from '../helpers/drive.ts';
import { answer, difference } from '../helpers/compare-answers.ts';

const SEED = Number(process.env.RESTORE_SEED) || 29;
const RUNS = Number(process.env.RESTORE_RUNS) || 40;
const CEILINGS = [4_000, 8_000, 16_000, 32_000, 128_000];
/** Messages of a replay: enough for several epochs at 4,000 and 8,000, few enough to restore at every call. */
const MAX_MESSAGES = 90;

// the o200k counter, remembered: each restore re-counts the whole history
const counted = new Map<string, number>();
const countTokens = (text: string): number => counted.get(text) ?? counted.set(text, o200k(text)).get(text)!;

const SESSIONS = readFixtureSessions();

/** Text of about `chars` characters: `text`'s own lines repeated. */
function grown(text: string, chars: number): string {
  const unit = `${text || 'output line'}\n`;
  return unit.repeat(Math.max(1, Math.ceil(chars / unit.length)));
}

/**
 * The session's script with one tool result or user instruction grown to about `chars`
 * characters: a live step too big for the view, clipped or folded around (an instruction that
 * big is pinned whole into the band that folds it, so that band saves nothing: the path of the
 * self-refused snapshot).
 */
function withHugeMessage(script: CanonicalScript, { kind, at, chars }: NonNullable<Replay['huge']>): CanonicalScript {
  if (kind === 'instruction') {
    // a new user turn that splits a turn after one of its steps (sessions of one instruction have no later one to grow)
    const places = script.turns.flatMap((turn, t) => turn.steps.map((_, s) => [t, s + 1] as const));
    if (!places.length) return script;
    const [t, s] = places[at % places.length];
    const turn = script.turns[t];
    const { reply, ...opened } = turn;
    const split = [
      { ...opened, steps: turn.steps.slice(0, s) },
      {
        instruction: grown('Here is the full log of the failing run, look at it before going on:', chars),
        steps: turn.steps.slice(s),
        ...(reply === undefined ? {} : { reply }),
      },
    ];
    return { ...script, turns: [...script.turns.slice(0, t), ...split, ...script.turns.slice(t + 1)] };
  }
  const results = script.turns.flatMap((turn, t) =>
    turn.steps.flatMap((step, s) => step.results.map((_, k) => [t, s, k] as const)),
  );
  if (!results.length) return script;
  const [t, s, k] = results[at % results.length];
  return {
    ...script,
    turns: script.turns.map((turn, n) =>
      n !== t
        ? turn
        : {
            ...turn,
            steps: turn.steps.map((step, m) =>
              m !== s
                ? step
                : {
                    ...step,
                    results: step.results.map((result, r) =>
                      r !== k ? result : { ...result, text: grown(result.text, chars) },
                    ),
                  },
            ),
          },
    ),
  };
}

const histories = new Map<string, ProviderMessage[]>();
function historyOf(session: number, dialect: Dialect, huge: Replay['huge']): ProviderMessage[] {
  const key = `${session}:${dialect}:${JSON.stringify(huge ?? null)}`;
  let history = histories.get(key);
  if (!history) {
    const script = huge ? withHugeMessage(SESSIONS[session].script, huge) : SESSIONS[session].script;
    histories.set(key, (history = toDialect(script, dialect, { systemInHistory: true }).slice(0, MAX_MESSAGES)));
  }
  return history;
}

type EditKind = 'duplicate' | 'move' | 'drop' | 'arguments';
interface Edit {
  /** The call from which on the history carries the edit. */
  readonly call: number;
  readonly kind: EditKind;
  readonly at: number;
  readonly to: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A copy of `message` whose tool-call arguments flip between JSON text and an object (OpenAI, Responses), or object and JSON text (Anthropic, Gemini, AI SDK). */
function flipArguments(message: ProviderMessage): ProviderMessage {
  const flip = (value: unknown, depth: number): unknown => {
    if (depth > 6 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => flip(item, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (key === 'arguments' && typeof item === 'string') {
        try {
          copy[key] = JSON.parse(item);
          continue;
        } catch {
          // not JSON: left as it is
        }
      }
      copy[key] = (key === 'input' || key === 'args') && isRecord(item) ? JSON.stringify(item) : flip(item, depth + 1);
    }
    return copy;
  };
  return flip(message, 0) as ProviderMessage;
}

/**
 * The history a call sees: the first `length` messages with every edit made by then, each at the
 * place it was made (positions are fixed when the edit is first seen) and with the same message
 * objects on every call, as a host that keeps its edited array would pass them.
 */
class EditedHistory {
  private readonly placed = new Map<Edit, { at: number; to: number }>();
  private readonly flipped = new Map<ProviderMessage, ProviderMessage>();

  constructor(
    private readonly source: readonly ProviderMessage[],
    private readonly edits: readonly Edit[],
  ) {}

  at(call: number, length: number): ProviderMessage[] {
    const history = this.source.slice(0, length);
    for (const edit of this.edits) {
      if (edit.call > call || history.length < 2) continue;
      let place = this.placed.get(edit);
      if (!place)
        this.placed.set(
          edit,
          (place = { at: 1 + (edit.at % (history.length - 1)), to: 1 + (edit.to % (history.length - 1)) }),
        );
      const at = Math.min(place.at, history.length - 1);
      const to = Math.min(place.to, history.length - 1);
      if (edit.kind === 'duplicate') history.splice(at, 0, history[at]);
      else if (edit.kind === 'drop') history.splice(at, 1);
      else if (edit.kind === 'move') history.splice(to, 0, ...history.splice(at, 1));
      else {
        const message = history[at];
        let copy = this.flipped.get(message);
        if (!copy) this.flipped.set(message, (copy = flipArguments(message)));
        history[at] = copy;
      }
    }
    return history;
  }
}

const replay = fc.record({
  session: fc.nat({ max: SESSIONS.length - 1 }),
  dialect: fc.constantFrom(...DIALECTS),
  ceiling: fc.constantFrom(...CEILINGS),
  edits: fc.array(
    fc.record({
      call: fc.nat({ max: 40 }),
      kind: fc.constantFrom<EditKind>('duplicate', 'move', 'drop', 'arguments'),
      at: fc.nat(),
      to: fc.nat(),
    }),
    { maxLength: 4 },
  ),
  // mostly seconds apart, sometimes past the provider cache's lifetime
  clockSteps: fc.array(
    fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1_000, max: 60_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: 300_001, max: 900_000 }) },
    ),
    { minLength: 1, maxLength: 8 },
  ),
  // the host reports what the provider counted for the previous prompt, a little off the session's count
  telemetry: fc.option(fc.double({ min: 0.9, max: 1.4, noNaN: true }), { nil: undefined }),
  followedFrom: fc.nat({ max: 30 }),
  huge: fc.option(
    fc.record({
      kind: fc.constantFrom<'result' | 'instruction'>('result', 'instruction'),
      at: fc.nat({ max: 40 }),
      chars: fc.integer({ min: 20_000, max: 60_000 }),
    }),
    { nil: undefined, freq: 2 },
  ),
});

type Replay = typeof replay extends fc.Arbitrary<infer T> ? T : never;

/** What a run went through, so the suite can show it is not vacuous. */
const seen = {
  calls: 0,
  refused: 0,
  reasons: new Map<string, number>(),
  dialects: new Set<Dialect>(),
  ceilings: new Set<number>(),
};

function run({ session, dialect, ceiling, edits, clockSteps, telemetry, followedFrom, huge }: Replay): void {
  const source = historyOf(session, dialect, huge);
  const edited = new EditedHistory(source, edits);
  let clock = 1_700_000_000_000;
  const options = { pressureCeiling: ceiling, countTokens, now: () => clock };
  const live = new FoldSession(options);
  let snapshot = live.snapshot();
  let followed: FoldSession | null = null;
  let lastView = 0;
  seen.dialects.add(dialect);
  seen.ceilings.add(ceiling);
  preparePoints(source).forEach((length, call) => {
    clock += clockSteps[call % clockSteps.length];
    const history = edited.at(call, length);
    const prepareOptions: FoldPrepareOptions =
      telemetry && lastView ? { measuredInputTokens: Math.round(lastView * telemetry) } : {};
    const restored = new FoldSession({ ...options, restoredState: snapshot });
    const expected = answer(() => live.prepare(history, prepareOptions));
    const where = `session ${SESSIONS[session].id}, ${dialect}, ceiling ${ceiling}, call ${call} (${history.length} messages)`;
    expect(
      difference(
        answer(() => restored.prepare(history, prepareOptions)),
        expected,
      ),
      `${where}: restored after the call before`,
    ).toBeUndefined();
    if (followed)
      expect(
        difference(
          answer(() => followed!.prepare(history, prepareOptions)),
          expected,
        ),
        `${where}: restored after call ${followedFrom}`,
      ).toBeUndefined();
    snapshot = live.snapshot();
    expect(restored.snapshot(), `${where}: the restored session saves what the live one saves`).toBe(snapshot);
    if (call === followedFrom) followed = new FoldSession({ ...options, restoredState: snapshot });
    seen.calls++;
    if (expected.startsWith('threw')) seen.refused++;
    else {
      const stats = (JSON.parse(expected) as { stats: { epochReason?: string; viewTokens: number } }).stats;
      lastView = stats.viewTokens;
      if (stats.epochReason) seen.reasons.set(stats.epochReason, (seen.reasons.get(stats.epochReason) ?? 0) + 1);
    }
  });
}

describe('restore-then-continue equals continue, over edited replays (issue 29)', () => {
  it(`seed ${SEED}, ${RUNS} replays: every snapshot restores and the restored session answers as the live one`, () => {
    fc.assert(fc.property(replay, run), { seed: SEED, numRuns: RUNS });
    // not vacuous: every dialect and ceiling, refused calls, boundary changes and folds
    expect([...seen.dialects].sort()).toEqual([...DIALECTS].sort());
    expect(seen.ceilings.size).toBe(CEILINGS.length);
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.reasons.get('boundary-changed') ?? 0).toBeGreaterThan(0);
    expect(seen.reasons.get('over-budget') ?? 0).toBeGreaterThan(0);
    expect(seen.reasons.has('restored-mismatch')).toBe(false);
    if (process.env.RESTORE_VERBOSE)
      console.log(
        JSON.stringify({
          ...seen,
          reasons: Object.fromEntries(seen.reasons),
          dialects: [...seen.dialects],
          ceilings: [...seen.ceilings],
        }),
      );
  }, 120_000);
});
