/** One recall shown: the key that triggered it and the entry it showed. */
export interface ResidentRecall {
  /** `path:<normalised path>` or `identifier:<value>`. */
  readonly key: string;
  readonly entryId: string;
  /** The call (1-based pass number) that showed it. */
  readonly call: number;
  /** `now` of that call, when the host passed one. */
  readonly at?: number;
}

/**
 * What recall remembers between calls, as plain JSON so a Durable Object or a page reload can
 * keep it. Pure: every update returns a new state.
 */
export interface RecallState {
  readonly version: 1;
  /** Recall passes so far. */
  readonly calls: number;
  /** Recalls still resident, oldest first. */
  readonly resident: readonly ResidentRecall[];
}

export function createRecallState(): RecallState {
  return { version: 1, calls: 0, resident: [] };
}

/** Accepts a state read back from JSON; anything malformed starts afresh rather than throwing mid-session. */
export function restoreRecallState(value: unknown): RecallState {
  const record = typeof value === 'string' ? safeParse(value) : value;
  if (record === null || typeof record !== 'object') return createRecallState();
  const { version, calls, resident } = record as Record<string, unknown>;
  if (version !== 1 || typeof calls !== 'number' || !Number.isInteger(calls) || calls < 0 || !Array.isArray(resident))
    return createRecallState();
  const kept = resident.filter(
    (item): item is ResidentRecall =>
      item !== null &&
      typeof item === 'object' &&
      typeof item.key === 'string' &&
      typeof item.entryId === 'string' &&
      typeof item.call === 'number' &&
      (item.at === undefined || typeof item.at === 'number'),
  );
  return {
    version: 1,
    calls,
    resident: kept.map((item) => ({
      key: item.key,
      entryId: item.entryId,
      call: item.call,
      ...(item.at === undefined ? {} : { at: item.at }),
    })),
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
