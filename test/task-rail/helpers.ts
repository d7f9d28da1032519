import { expect } from 'vitest';
import { startTaskRail, type TaskRail, type TaskRailError, type TaskRailResult } from '../../src/task-rail/index.ts';

export const START = 1_000_000;

export function railOf(result: TaskRailResult): TaskRail {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.rail;
}

export function errorOf(result: TaskRailResult): TaskRailError {
  if (result.ok) throw new Error('expected an error result');
  return result.error;
}

export function threeStepRail(locked = false): TaskRail {
  return railOf(
    startTaskRail({
      id: 'rail-1',
      title: 'Ship it',
      locked,
      steps: [
        { id: 'a', title: 'Inspect' },
        { id: 'b', title: 'Patch', detail: 'only parser.ts' },
        { id: 'c', title: 'Validate' },
      ],
      now: START,
    }),
  );
}

/** Asserts an operation left its input untouched. */
export function expectUnchanged(before: TaskRail, snapshot: TaskRail): void {
  expect(before).toStrictEqual(snapshot);
}
