import { TASK_RAIL_FORMAT_VERSION } from './serialized-task-rail.ts';
import { railFailure, railSuccess } from './task-rail-error.ts';
import type { TaskRail, TaskRailResult, TaskRailStep, TaskStepStatus } from './types.ts';

const statuses: readonly TaskStepStatus[] = ['pending', 'queued', 'active', 'done', 'failed', 'skipped'];

class InvalidField {
  constructor(
    readonly field: string,
    readonly message: string,
  ) {}
}

type JsonObject = Record<string, unknown>;

function objectAt(value: unknown, field: string): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidField(field, `${field} must be an object`);
  return value as JsonObject;
}

function text(source: JsonObject, key: string, field: string, options: { optional?: boolean; nonEmpty?: boolean } = {}): string | undefined {
  const value = source[key];
  if (value === undefined && options.optional) return undefined;
  if (typeof value !== 'string') throw new InvalidField(field, `${field} must be a string`);
  if (options.nonEmpty && value.trim() === '') throw new InvalidField(field, `${field} must not be empty`);
  return value;
}

function count(source: JsonObject, key: string, field: string, minimum: number): number {
  const value = source[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new InvalidField(field, `${field} must be an integer of at least ${minimum}`);
  }
  return value;
}

function time(source: JsonObject, key: string, field: string, optional = false): number | undefined {
  const value = source[key];
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidField(field, `${field} must be a finite number`);
  return value;
}

function readStep(value: unknown, field: string): TaskRailStep {
  const source = objectAt(value, field);
  const status = source.status;
  if (typeof status !== 'string' || !statuses.includes(status as TaskStepStatus)) {
    throw new InvalidField(`${field}.status`, `${field}.status must be one of ${statuses.join(', ')}`);
  }
  const detail = text(source, 'detail', `${field}.detail`, { optional: true });
  const startedAt = time(source, 'startedAt', `${field}.startedAt`, true);
  const resolvedAt = time(source, 'resolvedAt', `${field}.resolvedAt`, true);
  const evidence = text(source, 'evidence', `${field}.evidence`, { optional: true });
  const note = text(source, 'note', `${field}.note`, { optional: true });
  // Only known fields are copied: unknown ones from newer writers are dropped, not trusted.
  return {
    id: text(source, 'id', `${field}.id`, { nonEmpty: true }) as string,
    title: text(source, 'title', `${field}.title`, { nonEmpty: true }) as string,
    ...(detail !== undefined ? { detail } : {}),
    status: status as TaskStepStatus,
    attempts: count(source, 'attempts', `${field}.attempts`, 0),
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(resolvedAt !== undefined ? { resolvedAt } : {}),
    ...(evidence !== undefined ? { evidence } : {}),
    ...(note !== undefined ? { note } : {}),
  };
}

function readRail(source: JsonObject): TaskRail {
  if (!Array.isArray(source.steps)) throw new InvalidField('steps', 'steps must be an array');
  const steps = source.steps.map((step, index) => readStep(step, `steps[${index}]`));
  const seen = new Set<string>();
  for (const [index, step] of steps.entries()) {
    if (seen.has(step.id)) throw new InvalidField(`steps[${index}].id`, `steps[${index}].id "${step.id}" is a duplicate`);
    seen.add(step.id);
  }
  if (steps.filter((step) => step.status === 'active').length > 1) throw new InvalidField('steps', 'at most one step may be active');
  const objective = text(source, 'objective', 'objective', { optional: true });
  if (typeof source.locked !== 'boolean') throw new InvalidField('locked', 'locked must be a boolean');
  return {
    id: text(source, 'id', 'id', { nonEmpty: true }) as string,
    title: text(source, 'title', 'title', { nonEmpty: true }) as string,
    ...(objective !== undefined ? { objective } : {}),
    locked: source.locked,
    revision: count(source, 'revision', 'revision', 0),
    nextStepNumber: count(source, 'nextStepNumber', 'nextStepNumber', 1),
    createdAt: time(source, 'createdAt', 'createdAt') as number,
    updatedAt: time(source, 'updatedAt', 'updatedAt') as number,
    steps,
  };
}

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
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return railFailure('invalid-serialized-rail', 'a serialized rail must be an object', { field: '(root)' });
  }
  const source = value as JsonObject;
  if (source.version !== TASK_RAIL_FORMAT_VERSION) {
    return railFailure('unsupported-version', `version must be ${TASK_RAIL_FORMAT_VERSION}, got ${JSON.stringify(source.version) ?? 'nothing'}`, {
      field: 'version',
    });
  }
  try {
    return railSuccess(readRail(source));
  } catch (error) {
    if (error instanceof InvalidField) return railFailure('invalid-serialized-rail', error.message, { field: error.field });
    throw error;
  }
}
