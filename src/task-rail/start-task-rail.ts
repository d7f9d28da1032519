import { buildSteps, isTime } from './step-input.ts';
import { railFailure, railSuccess } from './task-rail-error.ts';
import type { TaskRailResult, TaskRailStepInput } from './types.ts';

export interface StartTaskRailInput {
  /** Caller-supplied, so the same plan always produces the same rail. */
  id: string;
  title: string;
  objective?: string;
  steps?: TaskRailStepInput[];
  locked?: boolean;
  /** Milliseconds; the only clock the rail ever sees. */
  now: number;
}

export function startTaskRail(input: StartTaskRailInput): TaskRailResult {
  if (input === null || typeof input !== 'object')
    return railFailure('invalid-input', 'startTaskRail needs an input object', { field: 'input' });
  if (typeof input.id !== 'string' || input.id.trim() === '')
    return railFailure('invalid-input', 'id must be a non-empty string', { field: 'id' });
  if (typeof input.title !== 'string' || input.title.trim() === '') {
    return railFailure('invalid-input', 'title must be a non-empty string', { field: 'title' });
  }
  if (input.objective !== undefined && typeof input.objective !== 'string') {
    return railFailure('invalid-input', 'objective must be a string', { field: 'objective' });
  }
  if (input.locked !== undefined && typeof input.locked !== 'boolean') {
    return railFailure('invalid-input', 'locked must be a boolean', { field: 'locked' });
  }
  if (!isTime(input.now))
    return railFailure('invalid-input', 'now must be a finite number of milliseconds', { field: 'now' });
  const built = buildSteps(input.steps ?? [], new Set(), 1, 'steps');
  if ('ok' in built) return built;
  const objective = input.objective?.trim();
  return railSuccess({
    id: input.id.trim(),
    title: input.title.trim(),
    ...(objective ? { objective } : {}),
    locked: input.locked ?? false,
    revision: 1,
    nextStepNumber: built.nextStepNumber,
    createdAt: input.now,
    updatedAt: input.now,
    steps: built.steps,
  });
}
