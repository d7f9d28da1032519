/** Drives a session over a growing history the way a host does: prepare before each assistant message. */
import { isAssistant, isResponsesStepItem, type ProviderMessage } from './dialects.ts';

/**
 * History lengths at which a host calls `prepare`: before each assistant message (before each
 * Responses step, whose items follow one model call), and once on the whole history.
 */
export function preparePoints(history: readonly ProviderMessage[]): number[] {
  const points: number[] = [];
  for (let i = 1; i < history.length; i++) {
    if (isResponsesStepItem(history[i])) {
      if (!isResponsesStepItem(history[i - 1])) points.push(i);
    } else if (isAssistant(history[i])) points.push(i);
  }
  if (points[points.length - 1] !== history.length && history.length > 0) points.push(history.length);
  return points;
}

/** A clock the test advances by hand. */
export class ManualClock {
  constructor(public time = 1_700_000_000_000) {}
  readonly now = (): number => this.time;
  advance(milliseconds: number): void {
    this.time += milliseconds;
  }
}
