import type { TaskRail } from './types.ts';

export const TASK_RAIL_FORMAT_VERSION = 1;

/** The JSON shape on disk: the rail's own fields plus a format version. */
export type SerializedTaskRail = { version: typeof TASK_RAIL_FORMAT_VERSION } & TaskRail;

/** A JSON-ready copy; `JSON.stringify` it to store. Derived values (status, progress) are not stored. */
export function serializeTaskRail(rail: TaskRail): SerializedTaskRail {
  return {
    version: TASK_RAIL_FORMAT_VERSION,
    id: rail.id,
    title: rail.title,
    ...(rail.objective !== undefined ? { objective: rail.objective } : {}),
    locked: rail.locked,
    revision: rail.revision,
    nextStepNumber: rail.nextStepNumber,
    createdAt: rail.createdAt,
    updatedAt: rail.updatedAt,
    steps: rail.steps.map((step) => ({ ...step })),
  };
}
