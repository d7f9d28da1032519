import { WarpfoldError } from '../errors.ts';
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
export class TaskRailOperationError extends WarpfoldError {
  static override readonly errorName: string = 'TaskRailOperationError';
  declare readonly code: TaskRailErrorCode;
  /** The rail's error as plain data, with the step it concerns (`stepId`) where there is one. */
  readonly detail: TaskRailError;

  constructor(detail: TaskRailError) {
    super(detail.code, detail.message, { field: detail.field });
    this.detail = detail;
  }
}

/** For callers that prefer exceptions: the rail, or a thrown TaskRailOperationError. */
export function unwrapTaskRail(result: TaskRailResult): TaskRail {
  if (result.ok) return result.rail;
  throw new TaskRailOperationError(result.error);
}
