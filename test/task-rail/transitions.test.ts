import { describe, it, expect } from 'vitest';
import {
  ackStep,
  lockTaskRail,
  shoot,
  sprint,
  startTaskRail,
  taskRailProgress,
  taskRailStatus,
  unlockTaskRail,
  unwrapTaskRail,
  TaskRailOperationError,
  DEFAULT_SPRINT_SIZE,
} from '../../src/task-rail/index.ts';
import { START, errorOf, railOf, threeStepRail } from './helpers.ts';

describe('startTaskRail', () => {
  it('builds a rail from caller ids and time, generating missing step ids', () => {
    const rail = railOf(
      startTaskRail({
        id: ' rail-1 ',
        title: ' Ship it ',
        objective: 'Keep state out of the prompt',
        steps: [{ title: 'First' }, { id: 'step-2', title: 'Given id' }, { title: ' Third ', detail: ' why ' }],
        now: START,
      }),
    );
    expect(rail).toStrictEqual({
      id: 'rail-1',
      title: 'Ship it',
      objective: 'Keep state out of the prompt',
      locked: false,
      revision: 1,
      nextStepNumber: 4,
      createdAt: START,
      updatedAt: START,
      steps: [
        { id: 'step-1', title: 'First', status: 'pending', attempts: 0 },
        { id: 'step-2', title: 'Given id', status: 'pending', attempts: 0 },
        { id: 'step-3', title: 'Third', detail: 'why', status: 'pending', attempts: 0 },
      ],
    });
  });

  it('is deterministic for the same input', () => {
    const input = { id: 'r', title: 't', steps: [{ title: 'x' }, { title: 'y' }], now: 5 };
    expect(startTaskRail(input)).toStrictEqual(startTaskRail(input));
  });

  it('allows an empty rail', () => {
    const rail = railOf(startTaskRail({ id: 'r', title: 't', now: 0 }));
    expect(rail.steps).toEqual([]);
    expect(taskRailStatus(rail)).toBe('empty');
  });

  it.each([
    [{ id: '', title: 't', now: 0 }, 'id'],
    [{ id: 'r', title: '  ', now: 0 }, 'title'],
    [{ id: 'r', title: 't', now: Number.NaN }, 'now'],
    [{ id: 'r', title: 't', now: 0, locked: 'yes' }, 'locked'],
    [{ id: 'r', title: 't', now: 0, steps: 'nope' }, 'steps'],
    [{ id: 'r', title: 't', now: 0, steps: [{ title: '' }] }, 'steps[0].title'],
    [{ id: 'r', title: 't', now: 0, steps: [{ title: 'x', detail: 3 }] }, 'steps[0].detail'],
  ])('rejects bad input %# naming %s', (input, field) => {
    const error = errorOf(startTaskRail(input as never));
    expect(error.code).toBe('invalid-input');
    expect(error.field).toBe(field);
  });

  it('rejects duplicate step ids', () => {
    const error = errorOf(
      startTaskRail({
        id: 'r',
        title: 't',
        now: 0,
        steps: [
          { id: 'a', title: 'x' },
          { id: 'a', title: 'y' },
        ],
      }),
    );
    expect([error.code, error.field, error.stepId]).toEqual(['duplicate-step-id', 'steps[1].id', 'a']);
  });
});

describe('sprint', () => {
  it('queues the next batch of pending steps in order', () => {
    const rail = railOf(sprint(threeStepRail(), { size: 2, now: START + 1 }));
    expect(rail.steps.map((step) => step.status)).toEqual(['queued', 'queued', 'pending']);
    expect(rail.revision).toBe(2);
    expect(rail.updatedAt).toBe(START + 1);
  });

  it('defaults to a batch of six', () => {
    const steps = Array.from({ length: 8 }, (_, index) => ({ title: `s${index}` }));
    const rail = railOf(sprint(railOf(startTaskRail({ id: 'r', title: 't', steps, now: 0 })), { now: 1 }));
    expect(rail.steps.filter((step) => step.status === 'queued')).toHaveLength(DEFAULT_SPRINT_SIZE);
  });

  it('appends steps with fresh ids that skip taken ones, then queues', () => {
    const base = railOf(
      startTaskRail({ id: 'r', title: 't', steps: [{ title: 'one' }, { id: 'step-2', title: 'two' }], now: 0 }),
    );
    const rail = railOf(sprint(base, { steps: [{ title: 'three' }, { title: 'four' }], size: 10, now: 1 }));
    expect(rail.steps.map((step) => step.id)).toEqual(['step-1', 'step-2', 'step-3', 'step-4']);
    expect(rail.steps.every((step) => step.status === 'queued')).toBe(true);
    expect(rail.nextStepNumber).toBe(5);
  });

  it('refuses structural edits on a locked rail but still queues', () => {
    const locked = threeStepRail(true);
    const error = errorOf(sprint(locked, { steps: [{ title: 'extra' }], now: 1 }));
    expect([error.code, error.field]).toEqual(['rail-locked', 'steps']);
    expect(railOf(sprint(locked, { now: 1 })).steps[0].status).toBe('queued');
    expect(railOf(sprint(locked, { steps: [], now: 1 })).steps[0].status).toBe('queued');
  });

  it('refuses while a failed step is unresolved', () => {
    const failed = railOf(ackStep(threeStepRail(), { stepId: 'a', outcome: 'failed', now: 1 }));
    expect(errorOf(sprint(failed, { now: 2 }))).toMatchObject({ code: 'rail-blocked', stepId: 'a' });
  });

  it('reports empty, complete and nothing-left rails', () => {
    expect(errorOf(sprint(railOf(startTaskRail({ id: 'r', title: 't', now: 0 })), { now: 1 })).code).toBe('rail-empty');
    let rail = threeStepRail();
    for (const stepId of ['a', 'b', 'c']) rail = railOf(ackStep(rail, { stepId, outcome: 'done', now: 1 }));
    expect(errorOf(sprint(rail, { now: 2 })).code).toBe('rail-complete');
    const inFlight = railOf(sprint(threeStepRail(), { size: 3, now: 1 }));
    expect(errorOf(sprint(inFlight, { now: 2 })).code).toBe('nothing-to-sprint');
  });

  it('validates size, now and steps', () => {
    expect(errorOf(sprint(threeStepRail(), { size: 0, now: 1 })).field).toBe('size');
    expect(errorOf(sprint(threeStepRail(), { size: 1.5, now: 1 })).field).toBe('size');
    expect(errorOf(sprint(threeStepRail(), { now: Number.POSITIVE_INFINITY })).field).toBe('now');
    expect(errorOf(sprint(threeStepRail(), { steps: {} as never, now: 1 })).field).toBe('steps');
    expect(errorOf(sprint(threeStepRail(), { steps: [{ id: 'a', title: 'dup' }], now: 1 })).code).toBe(
      'duplicate-step-id',
    );
  });
});

describe('shoot', () => {
  it('activates the first queued step before any pending one', () => {
    const queued = railOf(sprint(railOf(shoot(threeStepRail(), { now: 1 })), { now: 2 }));
    expect(queued.steps.map((step) => step.status)).toEqual(['active', 'queued', 'queued']);
    const rail = railOf(ackStep(queued, { stepId: 'a', outcome: 'done', now: 3 }));
    const shot = railOf(shoot(rail, { now: 4 }));
    expect(shot.steps[1]).toMatchObject({ id: 'b', status: 'active', attempts: 1, startedAt: 4 });
  });

  it('activates the next pending step without a sprint', () => {
    const rail = railOf(shoot(threeStepRail(), { now: 7 }));
    expect(rail.steps[0]).toMatchObject({ status: 'active', attempts: 1, startedAt: 7 });
    expect(taskRailStatus(rail)).toBe('active');
  });

  it('is idempotent for the active step and returns the same rail', () => {
    const rail = railOf(shoot(threeStepRail(), { now: 1 }));
    expect(railOf(shoot(rail, { now: 2 }))).toBe(rail);
    expect(railOf(shoot(rail, { stepId: 'a', now: 2 }))).toBe(rail);
  });

  it('refuses a second active step', () => {
    const rail = railOf(shoot(threeStepRail(), { now: 1 }));
    expect(errorOf(shoot(rail, { stepId: 'b', now: 2 }))).toMatchObject({ code: 'step-already-active', stepId: 'a' });
  });

  it('shoots a chosen step, refusing unknown and resolved ones', () => {
    expect(railOf(shoot(threeStepRail(), { stepId: 'c', now: 1 })).steps[2].status).toBe('active');
    expect(errorOf(shoot(threeStepRail(), { stepId: 'zz', now: 1 }))).toMatchObject({
      code: 'unknown-step',
      stepId: 'zz',
    });
    const done = railOf(ackStep(threeStepRail(), { stepId: 'a', outcome: 'done', now: 1 }));
    expect(errorOf(shoot(done, { stepId: 'a', now: 2 })).code).toBe('step-already-resolved');
  });

  it('retries a failed step only when asked by id', () => {
    let rail = railOf(shoot(threeStepRail(), { now: 1 }));
    rail = railOf(ackStep(rail, { stepId: 'a', outcome: 'failed', evidence: 'exit 1', now: 2 }));
    expect(taskRailStatus(rail)).toBe('blocked');
    expect(errorOf(shoot(rail, { now: 3 }))).toMatchObject({ code: 'rail-blocked', stepId: 'a' });
    const retried = railOf(shoot(rail, { stepId: 'a', now: 3 }));
    expect(retried.steps[0]).toMatchObject({ status: 'active', attempts: 2, startedAt: 3, evidence: 'exit 1' });
  });

  it('reports empty and complete rails', () => {
    expect(errorOf(shoot(railOf(startTaskRail({ id: 'r', title: 't', now: 0 })), { now: 1 })).code).toBe('rail-empty');
    let rail = threeStepRail();
    for (const stepId of ['a', 'b', 'c']) rail = railOf(ackStep(rail, { stepId, outcome: 'skipped', now: 1 }));
    expect(errorOf(shoot(rail, { now: 2 })).code).toBe('rail-complete');
  });
});

describe('ackStep', () => {
  it('records outcome, evidence, note and time', () => {
    const rail = railOf(
      ackStep(railOf(shoot(threeStepRail(), { now: 1 })), {
        stepId: 'a',
        outcome: 'done',
        evidence: '  npm test: 12 passed ',
        note: 'fast',
        now: 9,
      }),
    );
    expect(rail.steps[0]).toStrictEqual({
      id: 'a',
      title: 'Inspect',
      status: 'done',
      attempts: 1,
      startedAt: 1,
      resolvedAt: 9,
      evidence: 'npm test: 12 passed',
      note: 'fast',
    });
    expect(rail.steps[1].status).toBe('pending');
  });

  it('accepts acks on a locked rail', () => {
    const rail = railOf(ackStep(threeStepRail(true), { stepId: 'b', outcome: 'skipped', now: 1 }));
    expect(rail.steps[1].status).toBe('skipped');
    expect(rail.locked).toBe(true);
  });

  it('refuses to ack a resolved step again, keeping its evidence', () => {
    const rail = railOf(ackStep(threeStepRail(), { stepId: 'a', outcome: 'done', evidence: 'proof', now: 1 }));
    expect(errorOf(ackStep(rail, { stepId: 'a', outcome: 'failed', now: 2 }))).toMatchObject({
      code: 'step-already-resolved',
      stepId: 'a',
    });
  });

  it('lets a failed step be acked done later', () => {
    let rail = railOf(ackStep(threeStepRail(), { stepId: 'a', outcome: 'failed', evidence: 'exit 1', now: 1 }));
    rail = railOf(ackStep(rail, { stepId: 'a', outcome: 'done', now: 2 }));
    expect(rail.steps[0]).toMatchObject({ status: 'done', evidence: 'exit 1', resolvedAt: 2 });
  });

  it.each([
    [{ stepId: 'a', outcome: 'finished', now: 1 }, 'invalid-input', 'outcome'],
    [{ stepId: 3, outcome: 'done', now: 1 }, 'invalid-input', 'stepId'],
    [{ stepId: 'a', outcome: 'done', evidence: 5, now: 1 }, 'invalid-input', 'evidence'],
    [{ stepId: 'a', outcome: 'done', note: [], now: 1 }, 'invalid-input', 'note'],
    [{ stepId: 'a', outcome: 'done' }, 'invalid-input', 'now'],
    [{ stepId: 'nope', outcome: 'done', now: 1 }, 'unknown-step', 'stepId'],
  ])('rejects %j', (input, code, field) => {
    const error = errorOf(ackStep(threeStepRail(), input as never));
    expect([error.code, error.field]).toEqual([code, field]);
  });
});

describe('locking', () => {
  it('locks and unlocks, bumping the revision only on change', () => {
    const rail = threeStepRail();
    const locked = railOf(lockTaskRail(rail, { now: 5 }));
    expect([locked.locked, locked.revision, locked.updatedAt]).toEqual([true, 2, 5]);
    expect(railOf(lockTaskRail(locked, { now: 6 }))).toBe(locked);
    const unlocked = railOf(unlockTaskRail(locked, { now: 7 }));
    expect([unlocked.locked, unlocked.revision]).toEqual([false, 3]);
    expect(railOf(sprint(unlocked, { steps: [{ title: 'extra' }], now: 8 })).steps).toHaveLength(4);
    expect(errorOf(lockTaskRail(rail, { now: Number.NaN })).field).toBe('now');
  });
});

describe('progress', () => {
  it('counts statuses, floors the percent and names the current step', () => {
    let rail = railOf(
      startTaskRail({ id: 'r', title: 't', steps: [{ title: 'a' }, { title: 'b' }, { title: 'c' }], now: 0 }),
    );
    expect(taskRailProgress(rail)).toMatchObject({ total: 3, pending: 3, resolved: 0, percent: 0, status: 'ready' });
    expect(taskRailProgress(rail).currentStep?.id).toBe('step-1');
    rail = railOf(ackStep(rail, { stepId: 'step-1', outcome: 'done', now: 1 }));
    rail = railOf(ackStep(rail, { stepId: 'step-2', outcome: 'skipped', now: 2 }));
    rail = railOf(shoot(rail, { now: 3 }));
    expect(taskRailProgress(rail)).toMatchObject({
      total: 3,
      pending: 0,
      queued: 0,
      active: 1,
      done: 1,
      failed: 0,
      skipped: 1,
      resolved: 2,
      percent: 66,
      status: 'active',
    });
    expect(taskRailProgress(rail).currentStep?.id).toBe('step-3');
    rail = railOf(ackStep(rail, { stepId: 'step-3', outcome: 'done', now: 4 }));
    expect(taskRailProgress(rail)).toMatchObject({ percent: 100, status: 'complete', currentStep: null });
  });

  it('reports 0% for an empty rail', () => {
    expect(taskRailProgress(railOf(startTaskRail({ id: 'r', title: 't', now: 0 })))).toMatchObject({
      total: 0,
      percent: 0,
      status: 'empty',
    });
  });
});

describe('unwrapTaskRail', () => {
  it('returns the rail or throws a typed error', () => {
    expect(unwrapTaskRail({ ok: true, rail: threeStepRail() }).id).toBe('rail-1');
    try {
      unwrapTaskRail(shoot(threeStepRail(), { stepId: 'zz', now: 1 }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TaskRailOperationError);
      expect((error as TaskRailOperationError).code).toBe('unknown-step');
    }
  });
});
