import type { PhraseIndex } from '../text/phrase-index.ts';
import type { FoldLineKind } from './fold-line.ts';

/**
 * Expected reuse per token of a folded line, measured on real agent sessions: agents re-use
 * their own long explanations and the phrases they already repeat far more than anything else,
 * then their own commands; tool output is rarely quoted again except failures and diffs (its
 * identifiers keep their lines in the closet).
 */
export interface LineValueWeights {
  readonly assistant: number;
  readonly assistantRepeated: number;
  /** Extra density by source-line length: <80, <160, <240, longer (characters). */
  readonly assistantLength: readonly [number, number, number, number];
  readonly argument: number;
  readonly argumentRepeated: number;
  readonly user: number;
  readonly reasoning: number;
  readonly output: number;
  /** Lines a diff removes; lines it adds count as the agent's own arguments. */
  readonly diff: number;
  readonly error: number;
  /** Value of holding the latest context of an identifier; doubled when the agent used it. */
  readonly identifier: number;
  /** Newest lines weigh (1 + recency / 2) times, oldest (1 - recency / 2). */
  readonly recency: number;
}

export const DEFAULT_LINE_VALUE_WEIGHTS: LineValueWeights = {
  assistant: 0.06,
  assistantRepeated: 0.15,
  assistantLength: [0, 0.03, 0.08, 0.2],
  argument: 0.1,
  argumentRepeated: 0.08,
  user: 0.01,
  reasoning: 0.03,
  output: 0.012,
  diff: 0.02,
  error: 0.04,
  identifier: 0.5,
  recency: 0.5,
};

/** A line a diff adds: the agent's own writing, as an edit tool echoes it back. */
export const ADDED_LINE = /^\s*(\d+\s*)?\+(?!\+)/;
const REMOVED_LINE = /^\s*(\d+\s*)?-(?!-)\s/;

/** Share of a line's phrases that the agent's and user's messages hold at least `times` times. */
function sharedShare(phrases: readonly number[], index: PhraseIndex, times: number): number {
  if (!phrases.length) return 0;
  let shared = 0;
  for (const key of phrases) if (index.count(key) >= times) shared++;
  return shared / phrases.length;
}

export function wordDensity(
  kind: FoldLineKind,
  text: string,
  sourceLength: number,
  phrases: readonly number[],
  index: PhraseIndex,
  weights: LineValueWeights,
): number {
  // a line too short to repeat five words can still matter to the agent, just less
  const short = phrases.length ? 1 : 0.3;
  switch (kind) {
    case 'assistant': {
      const lengthClass = sourceLength < 80 ? 0 : sourceLength < 160 ? 1 : sourceLength < 240 ? 2 : 3;
      return (
        short *
        (weights.assistant +
          weights.assistantRepeated * sharedShare(phrases, index, 2) +
          weights.assistantLength[lengthClass])
      );
    }
    case 'argument':
      return short * (weights.argument + weights.argumentRepeated * sharedShare(phrases, index, 2));
    case 'user':
      return short * weights.user;
    case 'reasoning':
      return short * weights.reasoning;
    case 'error':
      return weights.error;
    case 'output':
      if (ADDED_LINE.test(text)) return short * weights.argument;
      return short * (REMOVED_LINE.test(text) ? weights.diff : weights.output);
    case 'call':
      return 0;
  }
}
