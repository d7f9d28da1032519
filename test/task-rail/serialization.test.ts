import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  ackStep,
  lockTaskRail,
  restoreTaskRail,
  serializeTaskRail,
  shoot,
  sprint,
  startTaskRail,
  unlockTaskRail,
  type AckOutcome,
  type TaskRail,
  type TaskRailResult,
} from '../../src/task-rail/index.ts';
import { START, errorOf, railOf, threeStepRail } from './helpers.ts';

function roundTrip(rail: TaskRail): TaskRailResult {
  return restoreTaskRail(JSON.parse(JSON.stringify(serializeTaskRail(rail))));
}

type Command =
  | { kind: 'sprint'; titles: string[]; size: number }
  | { kind: 'shoot'; stepIndex: number | null }
  | { kind: 'ack'; stepIndex: number; outcome: AckOutcome; evidence: string | null }
  | { kind: 'lock' }
  | { kind: 'unlock' };

const title = fc.string({ minLength: 1, maxLength: 12 }).filter((value) => value.trim() !== '');
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('sprint' as const),
    titles: fc.array(title, { maxLength: 3 }),
    size: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ kind: fc.constant('shoot' as const), stepIndex: fc.option(fc.nat(8), { nil: null }) }),
  fc.record({
    kind: fc.constant('ack' as const),
    stepIndex: fc.nat(8),
    outcome: fc.constantFrom<AckOutcome>('done', 'failed', 'skipped'),
    evidence: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
  }),
  fc.record({ kind: fc.constant('lock' as const) }),
  fc.record({ kind: fc.constant('unlock' as const) }),
);

function apply(rail: TaskRail, next: Command, now: number): TaskRailResult {
  const stepId = (index: number): string => rail.steps[index % Math.max(rail.steps.length, 1)]?.id ?? 'missing';
  switch (next.kind) {
    case 'sprint':
      return sprint(rail, { steps: next.titles.map((value) => ({ title: value })), size: next.size, now });
    case 'shoot':
      return shoot(rail, { ...(next.stepIndex === null ? {} : { stepId: stepId(next.stepIndex) }), now });
    case 'ack':
      return ackStep(rail, {
        stepId: stepId(next.stepIndex),
        outcome: next.outcome,
        ...(next.evidence === null ? {} : { evidence: next.evidence }),
        now,
      });
    case 'lock':
      return lockTaskRail(rail, { now });
    case 'unlock':
      return unlockTaskRail(rail, { now });
  }
}

describe('serializeTaskRail / restoreTaskRail', () => {
  it('writes a versioned, JSON-ready object', () => {
    const serialized = serializeTaskRail(threeStepRail());
    expect(serialized.version).toBe(1);
    expect(JSON.parse(JSON.stringify(serialized))).toStrictEqual(serialized);
  });

  it('round-trips a rail in every step state', () => {
    let rail = railOf(sprint(threeStepRail(), { size: 3, now: 1 }));
    rail = railOf(shoot(rail, { now: 2 }));
    rail = railOf(ackStep(rail, { stepId: 'a', outcome: 'done', evidence: 'ok', note: 'n', now: 3 }));
    rail = railOf(ackStep(rail, { stepId: 'c', outcome: 'failed', now: 4 }));
    rail = railOf(shoot(rail, { stepId: 'b', now: 5 }));
    expect(railOf(roundTrip(rail))).toStrictEqual(rail);
  });

  it('accepts JSON text directly', () => {
    const rail = threeStepRail();
    expect(railOf(restoreTaskRail(JSON.stringify(serializeTaskRail(rail))))).toStrictEqual(rail);
  });

  it('round-trips any sequence of valid operations unchanged, never mutating its input', () => {
    fc.assert(
      fc.property(
        fc.array(title, { maxLength: 5 }),
        fc.boolean(),
        fc.array(command, { maxLength: 30 }),
        (titles, locked, commands) => {
          let rail = railOf(
            startTaskRail({
              id: 'rail',
              title: 'Property',
              locked,
              steps: titles.map((value) => ({ title: value })),
              now: START,
            }),
          );
          let now = START;
          for (const next of commands) {
            now += 1;
            const snapshot = structuredClone(rail);
            const result = apply(rail, next, now);
            expect(rail).toStrictEqual(snapshot);
            if (!result.ok) continue;
            expect(result.rail.revision).toBeGreaterThanOrEqual(rail.revision);
            expect(result.rail.steps.filter((step) => step.status === 'active').length).toBeLessThanOrEqual(1);
            expect(new Set(result.rail.steps.map((step) => step.id)).size).toBe(result.rail.steps.length);
            rail = result.rail;
            expect(railOf(roundTrip(rail))).toStrictEqual(rail);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('restoreTaskRail errors', () => {
  const valid = (): Record<string, unknown> => JSON.parse(JSON.stringify(serializeTaskRail(threeStepRail())));

  it.each([
    [
      'a wrong version',
      (value: Record<string, unknown>) => ({ ...value, version: 2 }),
      'unsupported-version',
      'version',
    ],
    ['a missing version', ({ version: _, ...rest }: Record<string, unknown>) => rest, 'unsupported-version', 'version'],
    ['an empty id', (value: Record<string, unknown>) => ({ ...value, id: '' }), 'invalid-serialized-rail', 'id'],
    [
      'a numeric title',
      (value: Record<string, unknown>) => ({ ...value, title: 7 }),
      'invalid-serialized-rail',
      'title',
    ],
    [
      'a string lock',
      (value: Record<string, unknown>) => ({ ...value, locked: 'true' }),
      'invalid-serialized-rail',
      'locked',
    ],
    [
      'a negative revision',
      (value: Record<string, unknown>) => ({ ...value, revision: -1 }),
      'invalid-serialized-rail',
      'revision',
    ],
    [
      'a zero step counter',
      (value: Record<string, unknown>) => ({ ...value, nextStepNumber: 0 }),
      'invalid-serialized-rail',
      'nextStepNumber',
    ],
    [
      'a string time',
      (value: Record<string, unknown>) => ({ ...value, createdAt: '2024' }),
      'invalid-serialized-rail',
      'createdAt',
    ],
    [
      'missing steps',
      (value: Record<string, unknown>) => ({ ...value, steps: null }),
      'invalid-serialized-rail',
      'steps',
    ],
    [
      'a bad objective',
      (value: Record<string, unknown>) => ({ ...value, objective: 1 }),
      'invalid-serialized-rail',
      'objective',
    ],
  ])('rejects %s', (_, corrupt, code, field) => {
    const error = errorOf(restoreTaskRail(corrupt(valid())));
    expect([error.code, error.field]).toEqual([code, field]);
  });

  function withStep(index: number, patch: Record<string, unknown>): Record<string, unknown> {
    const value = valid();
    const steps = value.steps as Record<string, unknown>[];
    steps[index] = { ...steps[index], ...patch };
    return value;
  }

  it.each([
    [{ status: 'finished' }, 'steps[1].status'],
    [{ id: '' }, 'steps[1].id'],
    [{ title: null }, 'steps[1].title'],
    [{ attempts: 1.5 }, 'steps[1].attempts'],
    [{ attempts: -1 }, 'steps[1].attempts'],
    [{ startedAt: 'now' }, 'steps[1].startedAt'],
    [{ resolvedAt: Number.NaN }, 'steps[1].resolvedAt'],
    [{ evidence: 3 }, 'steps[1].evidence'],
    [{ detail: {} }, 'steps[1].detail'],
  ])('names the bad step field %j', (patch, field) => {
    const error = errorOf(restoreTaskRail(withStep(1, patch)));
    expect([error.code, error.field]).toEqual(['invalid-serialized-rail', field]);
  });

  it('rejects a step that is not an object', () => {
    const value = valid();
    (value.steps as unknown[])[2] = 'c';
    expect(errorOf(restoreTaskRail(value)).field).toBe('steps[2]');
  });

  it('rejects duplicate ids and two active steps', () => {
    expect(errorOf(restoreTaskRail(withStep(2, { id: 'a' }))).field).toBe('steps[2].id');
    const twoActive = withStep(0, { status: 'active' });
    (twoActive.steps as Record<string, unknown>[])[1].status = 'active';
    expect(errorOf(restoreTaskRail(twoActive)).field).toBe('steps');
  });

  it('rejects non-objects and broken JSON', () => {
    for (const value of [null, 42, [], 'not json', '[1]']) {
      expect(errorOf(restoreTaskRail(value)).field).toBe('(root)');
    }
  });

  it('drops unknown fields instead of carrying them into the rail', () => {
    const value: Record<string, unknown> = { ...valid(), extra: 'x' };
    (value.steps as Record<string, unknown>[])[0].extra = 'y';
    const rail = railOf(restoreTaskRail(value));
    expect('extra' in rail).toBe(false);
    expect('extra' in rail.steps[0]).toBe(false);
  });
});
