import { isResolved, replaceStep, reviseRail } from './revise-rail.ts';
import { isTime } from './step-input.ts';
import { railFailure, railSuccess } from './task-rail-error.ts';
import type { AckOutcome, TaskRail, TaskRailResult, TaskRailStep } from './types.ts';

export interface AckStepInput {
  stepId: string;
  outcome: AckOutcome;
  /** What proves the outcome: a command and its result, a path, a test name. */
  evidence?: string;
  note?: string;
  now: number;
}

const outcomes: readonly AckOutcome[] = ['done', 'failed', 'skipped'];

/**
 * Record a step's outcome. Allowed on locked rails: acks are execution, not structure.
 * Done and skipped are final; acking them again is an error, so evidence is never overwritten.
 * There is no auto-advance: the next shoot picks the next step.
 */
export function ackStep(rail: TaskRail, input: AckStepInput): TaskRailResult {
  if (input === null || typeof input !== 'object')
    return railFailure('invalid-input', 'ackStep needs an input object', { field: 'input' });
  if (typeof input.stepId !== 'string')
    return railFailure('invalid-input', 'stepId must be a string', { field: 'stepId' });
  if (!outcomes.includes(input.outcome)) {
    return railFailure('invalid-input', `outcome must be one of ${outcomes.join(', ')}`, { field: 'outcome' });
  }
  if (input.evidence !== undefined && typeof input.evidence !== 'string') {
    return railFailure('invalid-input', 'evidence must be a string', { field: 'evidence' });
  }
  if (input.note !== undefined && typeof input.note !== 'string')
    return railFailure('invalid-input', 'note must be a string', { field: 'note' });
  if (!isTime(input.now))
    return railFailure('invalid-input', 'now must be a finite number of milliseconds', { field: 'now' });
  const index = rail.steps.findIndex((step) => step.id === input.stepId);
  if (index === -1)
    return railFailure('unknown-step', `no step "${input.stepId}"`, { stepId: input.stepId, field: 'stepId' });
  const step = rail.steps[index];
  if (isResolved(step)) {
    return railFailure('step-already-resolved', `step "${step.id}" is already ${step.status}`, { stepId: step.id });
  }
  const evidence = input.evidence?.trim() || step.evidence;
  const note = input.note?.trim() || step.note;
  const acked: TaskRailStep = {
    ...step,
    status: input.outcome,
    resolvedAt: input.now,
    ...(evidence ? { evidence } : {}),
    ...(note ? { note } : {}),
  };
  return railSuccess(reviseRail(rail, { steps: replaceStep(rail.steps, index, acked) }, input.now));
}
