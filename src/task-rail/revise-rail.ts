import type { TaskRail, TaskRailStep } from './types.ts';

/** The one way a rail changes: new steps array, revision + 1, updatedAt = now. */
export function reviseRail(
  rail: TaskRail,
  changes: Partial<Pick<TaskRail, 'steps' | 'locked' | 'nextStepNumber'>>,
  now: number,
): TaskRail {
  return { ...rail, ...changes, revision: rail.revision + 1, updatedAt: now };
}

export function replaceStep(steps: readonly TaskRailStep[], index: number, step: TaskRailStep): TaskRailStep[] {
  return steps.map((existing, position) => (position === index ? step : existing));
}

export function isResolved(step: TaskRailStep): boolean {
  return step.status === 'done' || step.status === 'skipped';
}
