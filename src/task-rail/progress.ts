import type { TaskRail, TaskRailProgress, TaskRailStatus, TaskRailStep, TaskStepStatus } from './types.ts';

function first(steps: readonly TaskRailStep[], status: TaskStepStatus): TaskRailStep | undefined {
  return steps.find((step) => step.status === status);
}

export function taskRailStatus(rail: TaskRail): TaskRailStatus {
  const steps = rail.steps;
  if (steps.length === 0) return 'empty';
  if (steps.every((step) => step.status === 'done' || step.status === 'skipped')) return 'complete';
  if (first(steps, 'active') !== undefined) return 'active';
  if (first(steps, 'failed') !== undefined) return 'blocked';
  return 'ready';
}

/** The step an agent should look at now: active, else failed, else the next queued or pending. */
export function currentTaskRailStep(rail: TaskRail): TaskRailStep | null {
  const steps = rail.steps;
  return first(steps, 'active') ?? first(steps, 'failed') ?? first(steps, 'queued') ?? first(steps, 'pending') ?? null;
}

export function taskRailProgress(rail: TaskRail): TaskRailProgress {
  const counts: Record<TaskStepStatus, number> = { pending: 0, queued: 0, active: 0, done: 0, failed: 0, skipped: 0 };
  for (const step of rail.steps) counts[step.status] += 1;
  const total = rail.steps.length;
  const resolved = counts.done + counts.skipped;
  return {
    total,
    ...counts,
    resolved,
    percent: total === 0 ? 0 : Math.floor((100 * resolved) / total),
    status: taskRailStatus(rail),
    currentStep: currentTaskRailStep(rail),
  };
}
