export type {
  AckOutcome,
  TaskRail,
  TaskRailError,
  TaskRailErrorCode,
  TaskRailProgress,
  TaskRailResult,
  TaskRailStatus,
  TaskRailStep,
  TaskRailStepInput,
  TaskStepStatus,
} from './types.ts';
export type { StartTaskRailInput } from './start-task-rail.ts';
export type { SprintInput } from './sprint.ts';
export type { ShootInput } from './shoot.ts';
export type { AckStepInput } from './ack-step.ts';
export type { SerializedTaskRail } from './serialized-task-rail.ts';
export type {
  TaskRailDraft,
  TaskRailDraftConflict,
  TaskRailDraftOperation,
  TaskRailDraftOperationName,
  TaskRailDraftStatus,
  TaskRailStepPatch,
} from './draft-operations.ts';
export { startTaskRail } from './start-task-rail.ts';
export { DEFAULT_SPRINT_SIZE, sprint } from './sprint.ts';
export { shoot } from './shoot.ts';
export { ackStep } from './ack-step.ts';
export { lockTaskRail, unlockTaskRail } from './lock.ts';
export { currentTaskRailStep, taskRailProgress, taskRailStatus } from './progress.ts';
export { TASK_RAIL_FORMAT_VERSION, serializeTaskRail } from './serialized-task-rail.ts';
export { restoreTaskRail } from './restore-task-rail.ts';
export { TASK_STEP_MARKS, renderTaskRail } from './render-task-rail.ts';
export { TASK_RAIL_DRAFT_OPERATIONS } from './draft-operations.ts';
export { TaskRailOperationError, unwrapTaskRail } from './task-rail-error.ts';
