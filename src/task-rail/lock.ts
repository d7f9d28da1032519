import { reviseRail } from './revise-rail.ts';
import { isTime } from './step-input.ts';
import { railFailure, railSuccess } from './task-rail-error.ts';
import type { TaskRail, TaskRailResult } from './types.ts';

function setLocked(rail: TaskRail, locked: boolean, now: number): TaskRailResult {
  if (!isTime(now))
    return railFailure('invalid-input', 'now must be a finite number of milliseconds', { field: 'now' });
  // Already in the asked state: no change, no revision bump.
  if (rail.locked === locked) return railSuccess(rail);
  return railSuccess(reviseRail(rail, { locked }, now));
}

/** Freeze the plan: steps can still be sprinted, shot and acked, but not added. */
export function lockTaskRail(rail: TaskRail, input: { now: number }): TaskRailResult {
  return setLocked(rail, true, input?.now);
}

export function unlockTaskRail(rail: TaskRail, input: { now: number }): TaskRailResult {
  return setLocked(rail, false, input?.now);
}
