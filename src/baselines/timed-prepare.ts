import type { BaselineMessage, PrepareOptions, PreparedView, Strategy } from './types.ts';

export interface TimedPrepare {
  readonly prepared: PreparedView;
  readonly milliseconds: number;
  /** The strategy's error, if it threw: the call then goes out with the raw history, as the reference scorer does. */
  readonly error?: Error;
}

/** One timed `prepare` call; a throw is recorded, never fatal to the replay. */
export function timedPrepare(
  strategy: Strategy,
  history: readonly BaselineMessage[],
  options: PrepareOptions,
): TimedPrepare {
  const started = performance.now();
  try {
    const prepared = strategy.prepare(history, options);
    return { prepared, milliseconds: performance.now() - started };
  } catch (error) {
    return { prepared: { messages: history }, milliseconds: performance.now() - started, error: error as Error };
  }
}
