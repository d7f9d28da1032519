import { Transcript } from '../messages/transcript.ts';
import type { ProviderMessage, Turn } from '../messages/types.ts';

export interface StepFoldOptions {
  /** Fold only when the active turn is larger than this many tokens (default 0: always plan). */
  readonly activeTurnTokenBudget?: number;
  /** Newest steps kept whole (default 12). */
  readonly keepLastSteps?: number;
  readonly countTokens?: (text: string) => number;
}

export interface StepFoldPlan {
  /** The active turn cut into its kickoff and its steps; a step is a call and its results. */
  readonly steps: readonly Turn[];
  /** How many steps after the kickoff may fold; the kickoff (the instruction) never does. */
  readonly stepsToFold: number;
}

/**
 * Plans the fold of one marathon turn (one instruction, hundreds of tool steps): the turn is cut
 * at every assistant message that calls a tool, so no call is parted from its results. The
 * kickoff and the newest `keepLastSteps` steps stay whole. Null when there is nothing to fold.
 */
export function planActiveTurnStepFold(
  history: readonly ProviderMessage[],
  options: StepFoldOptions = {},
): StepFoldPlan | null {
  const transcript = new Transcript(options.countTokens ?? (() => 0));
  transcript.sync(history);
  let start = 0;
  for (let i = transcript.length - 1; i >= 0; i--) {
    if (transcript.messages[i].isTurnBoundary) {
      start = i;
      break;
    }
  }
  if (transcript.tokensBetween(start, transcript.length) < (options.activeTurnTokenBudget ?? 0)) return null;
  const cuts = [start];
  // a Responses step opens with reasoning or a message item before its calls: it starts where a cut is safe
  const stepped = transcript.dialect === 'openai-responses';
  for (let i = start + 1; i < transcript.length; i++)
    if (
      (stepped ? transcript.messages[i].role === 'assistant' : transcript.messages[i].toolCalls.length) &&
      transcript.isSafeCut(i)
    )
      cuts.push(i);
  const steps: Turn[] = cuts.map((cut, n) => ({ startIndex: cut, endIndex: cuts[n + 1] ?? transcript.length }));
  const stepsToFold = Math.max(0, steps.length - 1 - (options.keepLastSteps ?? 12));
  return stepsToFold > 0 ? { steps, stepsToFold } : null;
}
