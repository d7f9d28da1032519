/**
 * Step lifecycle:
 *   pending → queued (sprint) → active (shoot) → done | failed | skipped (ackStep)
 * pending and queued steps may be acked directly; a failed step may be shot again (retry)
 * or acked; done and skipped are final.
 */
export type TaskStepStatus = 'pending' | 'queued' | 'active' | 'done' | 'failed' | 'skipped';

export type AckOutcome = 'done' | 'failed' | 'skipped';

/** Derived from the steps, never stored, so it cannot drift out of sync. */
export type TaskRailStatus = 'empty' | 'ready' | 'active' | 'blocked' | 'complete';

export interface TaskRailStep {
  id: string;
  title: string;
  detail?: string;
  status: TaskStepStatus;
  /** How many times the step has been shot; a retry after failure counts again. */
  attempts: number;
  startedAt?: number;
  resolvedAt?: number;
  evidence?: string;
  note?: string;
}

export interface TaskRail {
  id: string;
  title: string;
  objective?: string;
  /** A locked rail accepts execution (sprint batches, shoot, ack) but no structural edits. */
  locked: boolean;
  /** Bumped by every accepted change; drafts record it to detect concurrent edits. */
  revision: number;
  /** Counter for generated step ids (`step-<n>`), stored so ids stay deterministic after restore. */
  nextStepNumber: number;
  createdAt: number;
  updatedAt: number;
  steps: TaskRailStep[];
}

export interface TaskRailStepInput {
  id?: string;
  title: string;
  detail?: string;
}

export type TaskRailErrorCode =
  | 'invalid-input'
  | 'duplicate-step-id'
  | 'unknown-step'
  | 'rail-locked'
  | 'rail-empty'
  | 'rail-complete'
  | 'rail-blocked'
  | 'step-already-active'
  | 'step-already-resolved'
  | 'nothing-to-sprint'
  | 'unsupported-version'
  | 'invalid-serialized-rail';

/** Plain data, so callers can log it or send it over the wire as is. */
export interface TaskRailError {
  code: TaskRailErrorCode;
  message: string;
  /** The input or serialized field at fault, e.g. `steps[2].status`. */
  field?: string;
  stepId?: string;
}

/** Every operation returns a new rail or an error; the rail passed in is never changed. */
export type TaskRailResult = { ok: true; rail: TaskRail } | { ok: false; error: TaskRailError };

export interface TaskRailProgress {
  total: number;
  pending: number;
  queued: number;
  active: number;
  done: number;
  failed: number;
  skipped: number;
  /** done + skipped. */
  resolved: number;
  /** floor(100 · resolved / total): 100 only when every step is resolved. */
  percent: number;
  status: TaskRailStatus;
  /** The active step, else the first failed, queued, then pending step. */
  currentStep: TaskRailStep | null;
}
