import { replaceStep, reviseRail } from './revise-rail.ts';
import { isTime } from './step-input.ts';
import { railFailure, railSuccess } from './task-rail-error.ts';
import type { TaskRail, TaskRailResult } from './types.ts';

export interface ShootInput {
  /** A specific step to execute; by default the next queued, else pending, step. */
  stepId?: string;
  now: number;
}

/**
 * Mark one step as being executed. One step is active at a time. Shooting the step that is
 * already active returns the rail unchanged, so a host may repeat the call safely.
 * Shooting a failed step retries it; without a stepId a failed step blocks the rail.
 */
export function shoot(rail: TaskRail, input: ShootInput): TaskRailResult {
  if (input === null || typeof input !== 'object')
    return railFailure('invalid-input', 'shoot needs an input object', { field: 'input' });
  if (!isTime(input.now))
    return railFailure('invalid-input', 'now must be a finite number of milliseconds', { field: 'now' });
  if (input.stepId !== undefined && typeof input.stepId !== 'string') {
    return railFailure('invalid-input', 'stepId must be a string', { field: 'stepId' });
  }
  const active = rail.steps.find((step) => step.status === 'active');
  if (active !== undefined) {
    if (input.stepId === undefined || input.stepId === active.id) return railSuccess(rail);
    return railFailure('step-already-active', `step "${active.id}" is active; ack it before shooting another`, {
      stepId: active.id,
    });
  }
  let index: number;
  if (input.stepId !== undefined) {
    index = rail.steps.findIndex((step) => step.id === input.stepId);
    if (index === -1)
      return railFailure('unknown-step', `no step "${input.stepId}"`, { stepId: input.stepId, field: 'stepId' });
    const status = rail.steps[index].status;
    if (status === 'done' || status === 'skipped') {
      return railFailure('step-already-resolved', `step "${input.stepId}" is already ${status}`, {
        stepId: input.stepId,
      });
    }
  } else {
    const failed = rail.steps.find((step) => step.status === 'failed');
    if (failed !== undefined) {
      return railFailure('rail-blocked', `step "${failed.id}" failed; shoot it by id to retry or ack it`, {
        stepId: failed.id,
      });
    }
    index = rail.steps.findIndex((step) => step.status === 'queued');
    if (index === -1) index = rail.steps.findIndex((step) => step.status === 'pending');
    if (index === -1) {
      return rail.steps.length === 0
        ? railFailure('rail-empty', 'the rail has no steps to shoot')
        : railFailure('rail-complete', 'every step is resolved');
    }
  }
  const step = rail.steps[index];
  const started = { ...step, status: 'active' as const, attempts: step.attempts + 1, startedAt: input.now };
  return railSuccess(reviseRail(rail, { steps: replaceStep(rail.steps, index, started) }, input.now));
}
