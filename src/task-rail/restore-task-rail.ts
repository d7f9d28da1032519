import {
  arrayOf,
  boolean,
  finite,
  integer,
  invalid,
  is,
  oneOf,
  optional,
  record,
  reject,
  string,
  type Check,
  type Fields,
} from '../validation/check.ts';
import { ValidationError } from '../validation/validation-error.ts';
import { isRecord } from '../text/is-record.ts';
import { TASK_RAIL_FORMAT_VERSION } from './serialized-task-rail.ts';
import { railFailure, railSuccess } from './task-rail-error.ts';
import type { TaskRail, TaskRailResult, TaskRailStep, TaskStepStatus } from './types.ts';

const statuses: readonly TaskStepStatus[] = ['pending', 'queued', 'active', 'done', 'failed', 'skipped'];

/** A title or id: a string with more than white space in it. */
const filled = is<string>((value) => typeof value === 'string' && value.trim() !== '', 'a non-empty string');
const time = finite();

// Only known fields are read: unknown ones from newer writers are dropped, not trusted.
const STEP: Fields<TaskRailStep> = {
  id: filled,
  title: filled,
  detail: optional(string),
  status: oneOf(statuses),
  attempts: integer(0),
  startedAt: optional(time),
  resolvedAt: optional(time),
  evidence: optional(string),
  note: optional(string),
};

const steps = arrayOf(record(STEP));

const RAIL: Fields<TaskRail> = {
  id: filled,
  title: filled,
  objective: optional(string),
  locked: boolean,
  revision: integer(0),
  nextStepNumber: integer(1),
  createdAt: time,
  updatedAt: time,
  steps: (value, path) => {
    const read = steps(value, path);
    const seen = new Set<string>();
    read.forEach((step, index) => {
      if (seen.has(step.id)) invalid(`${path}[${index}].id`, `"${step.id}" is a duplicate`);
      seen.add(step.id);
    });
    if (read.filter((step) => step.status === 'active').length > 1) invalid(path, 'holds more than one active step');
    return read;
  },
};

/** A rail's fields (its format version aside), every one checked; the first bad field is named. */
export const taskRail: Check<TaskRail> = (value, path) =>
  isRecord(value) ? record(RAIL)(value, path) : reject(path, 'a task rail object', value);

/**
 * Rebuild a rail from `serializeTaskRail` output (object or JSON text).
 * Everything is checked; the first bad field is named in the error.
 */
export function restoreTaskRail(input: unknown): TaskRailResult {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return railFailure('invalid-serialized-rail', 'the text is not valid JSON', { field: '(root)' });
    }
  }
  if (!isRecord(value))
    return railFailure('invalid-serialized-rail', 'a serialized rail must be an object', { field: '(root)' });
  if (value.version !== TASK_RAIL_FORMAT_VERSION) {
    return railFailure(
      'unsupported-version',
      `version must be ${TASK_RAIL_FORMAT_VERSION}, got ${JSON.stringify(value.version) ?? 'nothing'}`,
      { field: 'version' },
    );
  }
  try {
    return railSuccess(taskRail(value, ''));
  } catch (error) {
    if (error instanceof ValidationError)
      return railFailure('invalid-serialized-rail', error.message, { field: error.field });
    throw error;
  }
}
