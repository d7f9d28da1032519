import type { TaskRailStepInput, TaskStepStatus } from './types.ts';

/*
 * Drafts let a collaborator propose rail edits against a known revision and merge them later.
 * Only the types live here; the merge engine belongs to the host's wrapper. Operation names
 * keep the wire spelling tool wrappers already use (`batch_update`, `read_step`).
 */
export const TASK_RAIL_DRAFT_OPERATIONS = Object.freeze([
  'create',
  'append',
  'insert',
  'update',
  'batch_update',
  'remove',
  'move',
  'status',
  'detail',
  'read_step',
  'list',
  'merge',
  'abandon',
] as const);

export type TaskRailDraftOperationName = (typeof TASK_RAIL_DRAFT_OPERATIONS)[number];

export type TaskRailDraftStatus = 'open' | 'merged' | 'conflicted' | 'abandoned';

export interface TaskRailStepPatch {
  stepId: string;
  title?: string;
  detail?: string;
}

export type TaskRailDraftOperation =
  | { operation: 'create'; title: string; objective?: string; steps: TaskRailStepInput[] }
  | { operation: 'append'; steps: TaskRailStepInput[] }
  | { operation: 'insert'; index: number; steps: TaskRailStepInput[] }
  | ({ operation: 'update' } & TaskRailStepPatch)
  | { operation: 'batch_update'; patches: TaskRailStepPatch[] }
  | { operation: 'remove'; stepId: string }
  | { operation: 'move'; stepId: string; toIndex: number }
  | { operation: 'status' }
  | { operation: 'detail'; stepId: string }
  | { operation: 'read_step'; stepId: string }
  | { operation: 'list'; status?: TaskStepStatus }
  | { operation: 'merge'; actorId: string; force?: boolean }
  | { operation: 'abandon'; actorId: string };

export interface TaskRailDraftConflict {
  /** The live rail moved past the revision the draft was based on. */
  reason: 'revision-changed' | 'rail-locked' | 'step-missing' | 'not-owner';
  baseRevision: number;
  liveRevision: number;
  stepId?: string;
}

export interface TaskRailDraft {
  id: string;
  railId: string;
  ownerId: string;
  /** The rail revision the draft was written against; merge compares it to the live one. */
  baseRevision: number;
  status: TaskRailDraftStatus;
  operations: TaskRailDraftOperation[];
  conflict?: TaskRailDraftConflict;
  createdAt: number;
  updatedAt: number;
}
