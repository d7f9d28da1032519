import { describe, it, expect, expectTypeOf } from 'vitest';
import {
  TASK_RAIL_DRAFT_OPERATIONS,
  type TaskRailDraft,
  type TaskRailDraftOperationName,
} from '../../src/task-rail/index.ts';

describe('TASK_RAIL_DRAFT_OPERATIONS', () => {
  it('lists the draft operation names in their wire spelling, frozen', () => {
    expect(TASK_RAIL_DRAFT_OPERATIONS).toEqual([
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
    ]);
    expect(Object.isFrozen(TASK_RAIL_DRAFT_OPERATIONS)).toBe(true);
  });

  it('types every draft operation by one of those names', () => {
    expectTypeOf<TaskRailDraft['operations'][number]['operation']>().toEqualTypeOf<TaskRailDraftOperationName>();
    const draft: TaskRailDraft = {
      id: 'draft-1',
      railId: 'rail-1',
      ownerId: 'agent-2',
      baseRevision: 4,
      status: 'open',
      operations: [
        { operation: 'append', steps: [{ title: 'Add tests' }] },
        { operation: 'move', stepId: 'step-3', toIndex: 0 },
      ],
      createdAt: 0,
      updatedAt: 0,
    };
    expect(JSON.parse(JSON.stringify(draft))).toStrictEqual(draft);
  });
});
