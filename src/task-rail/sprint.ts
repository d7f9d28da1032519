import { reviseRail } from './revise-rail.ts';
import { buildSteps, isTime } from './step-input.ts';
import { railFailure, railSuccess } from './task-rail-error.ts';
import type { TaskRail, TaskRailResult, TaskRailStepInput } from './types.ts';

export interface SprintInput {
  /** Steps to append before queuing; a structural edit, so refused on a locked rail. */
  steps?: TaskRailStepInput[];
  /** How many pending steps to queue as the next batch (default 6). */
  size?: number;
  now: number;
}

export const DEFAULT_SPRINT_SIZE = 6;

/**
 * Start the next batch: optionally append steps, then queue the next `size` pending steps
 * in order. Refused while a failed step is unresolved: retry it (shoot) or ack it first.
 */
export function sprint(rail: TaskRail, input: SprintInput): TaskRailResult {
  if (input === null || typeof input !== 'object')
    return railFailure('invalid-input', 'sprint needs an input object', { field: 'input' });
  if (!isTime(input.now))
    return railFailure('invalid-input', 'now must be a finite number of milliseconds', { field: 'now' });
  const size = input.size ?? DEFAULT_SPRINT_SIZE;
  if (!Number.isSafeInteger(size) || size < 1)
    return railFailure('invalid-input', 'size must be a positive integer', { field: 'size' });
  const failed = rail.steps.find((step) => step.status === 'failed');
  if (failed !== undefined) {
    return railFailure('rail-blocked', `step "${failed.id}" failed; retry or ack it before the next sprint`, {
      stepId: failed.id,
    });
  }
  let steps = rail.steps;
  let nextStepNumber = rail.nextStepNumber;
  const additions: unknown = input.steps ?? [];
  if (!Array.isArray(additions)) return railFailure('invalid-input', 'steps must be an array', { field: 'steps' });
  if (additions.length > 0) {
    if (rail.locked)
      return railFailure('rail-locked', 'the rail is locked; unlock it to add steps', { field: 'steps' });
    const built = buildSteps(additions, new Set(rail.steps.map((step) => step.id)), rail.nextStepNumber, 'steps');
    if ('ok' in built) return built;
    steps = [...steps, ...built.steps];
    nextStepNumber = built.nextStepNumber;
  }
  let remaining = size;
  const queued = steps.map((step) => {
    if (remaining === 0 || step.status !== 'pending') return step;
    remaining -= 1;
    return { ...step, status: 'queued' as const };
  });
  if (remaining === size) {
    if (steps.length === 0) return railFailure('rail-empty', 'the rail has no steps to sprint');
    if (steps.every((step) => step.status === 'done' || step.status === 'skipped')) {
      return railFailure('rail-complete', 'every step is resolved');
    }
    return railFailure('nothing-to-sprint', 'no pending steps left; the current batch is still in flight');
  }
  return railSuccess(reviseRail(rail, { steps: queued, nextStepNumber }, input.now));
}
