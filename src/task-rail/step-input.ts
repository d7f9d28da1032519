import { railFailure } from './task-rail-error.ts';
import type { TaskRailError, TaskRailStep, TaskRailStepInput } from './types.ts';

export interface NewSteps {
  steps: TaskRailStep[];
  nextStepNumber: number;
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * Validate step inputs and give each an id: the caller's, or `step-<n>` from the rail's
 * counter, skipping numbers already taken so generated ids never collide with given ones.
 */
export function buildSteps(
  inputs: unknown,
  existingIds: ReadonlySet<string>,
  nextStepNumber: number,
  field: string,
): NewSteps | { ok: false; error: TaskRailError } {
  if (!Array.isArray(inputs)) return railFailure('invalid-input', `${field} must be an array`, { field });
  const taken = new Set(existingIds);
  for (const [index, input] of inputs.entries()) {
    if (input === null || typeof input !== 'object') {
      return railFailure('invalid-input', `${field}[${index}] must be an object`, { field: `${field}[${index}]` });
    }
    const candidate = input as Partial<TaskRailStepInput>;
    if (candidate.id !== undefined) {
      if (!isText(candidate.id)) {
        return railFailure('invalid-input', `${field}[${index}].id must be a non-empty string`, {
          field: `${field}[${index}].id`,
        });
      }
      if (taken.has(candidate.id.trim())) {
        return railFailure('duplicate-step-id', `step id "${candidate.id.trim()}" is already used`, {
          field: `${field}[${index}].id`,
          stepId: candidate.id.trim(),
        });
      }
      taken.add(candidate.id.trim());
    }
    if (!isText(candidate.title)) {
      return railFailure('invalid-input', `${field}[${index}].title must be a non-empty string`, {
        field: `${field}[${index}].title`,
      });
    }
    if (candidate.detail !== undefined && typeof candidate.detail !== 'string') {
      return railFailure('invalid-input', `${field}[${index}].detail must be a string`, {
        field: `${field}[${index}].detail`,
      });
    }
  }
  let counter = nextStepNumber;
  const steps = (inputs as TaskRailStepInput[]).map((input): TaskRailStep => {
    let id = input.id?.trim();
    if (id === undefined) {
      while (taken.has(`step-${counter}`)) counter += 1;
      id = `step-${counter}`;
      taken.add(id);
      counter += 1;
    }
    const detail = input.detail?.trim();
    return { id, title: input.title.trim(), ...(detail ? { detail } : {}), status: 'pending', attempts: 0 };
  });
  return { steps, nextStepNumber: counter };
}

export function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
