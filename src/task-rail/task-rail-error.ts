import type { TaskRail, TaskRailError, TaskRailErrorCode, TaskRailResult } from './types.ts';

export function railFailure(
  code: TaskRailErrorCode,
  message: string,
  detail: { field?: string; stepId?: string } = {},
): { ok: false; error: TaskRailError } {
  return { ok: false, error: { code, message, ...detail } };
}

export function railSuccess(rail: TaskRail): { ok: true; rail: TaskRail } {
  return { ok: true, rail };
}

/** Thrown by unwrapTaskRail, carrying the typed error. */
export class TaskRailOperationError extends Error {
  override readonly name = 'TaskRailOperationError';
  readonly code: TaskRailErrorCode;
  readonly detail: TaskRailError;

  constructor(detail: TaskRailError) {
    super(detail.message);
    this.code = detail.code;
    this.detail = detail;
  }
}

/** For callers that prefer exceptions: the rail, or a thrown TaskRailOperationError. */
export function unwrapTaskRail(result: TaskRailResult): TaskRail {
  if (result.ok) return result.rail;
  throw new TaskRailOperationError(result.error);
}
