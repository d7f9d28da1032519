import type { TokenCounter } from '../messages/transcript.ts';
import type { CanonicalMessage } from '../messages/types.ts';
import type { PhraseIndex } from '../text/phrase-index.ts';
import type { BandRequest, LineTokenCache } from './build-band.ts';
import type { Band } from './band.ts';
import type { FoldConfig } from './fold-config.ts';
import { DEFAULT_LINE_VALUE_WEIGHTS } from './line-value.ts';

/** What the view already holds before a band: lines, phrase keys and identifiers it need not repeat. */
export interface PresentInView {
  readonly lines: Pick<ReadonlySet<string>, 'has'>;
  readonly phrases: Pick<ReadonlySet<number>, 'has'>;
  readonly identifiers: Pick<ReadonlySet<string>, 'has'>;
}

const NOTHING: Pick<ReadonlySet<never>, 'has'> = { has: () => false };

/** A view with nothing in it yet: a one-shot fold, or a band that replaces everything before the live step. */
export const NOTHING_PRESENT: PresentInView = Object.freeze({ lines: NOTHING, phrases: NOTHING, identifiers: NOTHING });

export interface BandRequestInput {
  /** The messages and phrase index of the history (a `Transcript`). */
  readonly transcript: {
    readonly messages: readonly CanonicalMessage[];
    readonly phrases: PhraseIndex;
    tokensBetween(start: number, end: number): number;
  };
  readonly config: FoldConfig;
  readonly countTokens: TokenCounter;
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  readonly budgetTokens: number;
  /** Message whose words are kept whatever the budget, or -1. */
  readonly pinned: number;
  readonly withPreamble: boolean;
  readonly present?: PresentInView;
  /** Overrides the config's closet share (a band that is the only record of its history keeps more identifiers). */
  readonly closetFraction?: number;
  readonly estimateScale?: number;
  readonly lineTokens?: LineTokenCache;
  /** Sealed bands, contiguous from `start`, re-folded from the lines they show instead of their raw messages. */
  readonly sealed?: readonly Band[];
}

/**
 * The one place a band request is put together: every share comes from the fold config, so a
 * session fold, a last-resort clip and a one-shot `foldContext` fold by the same rules.
 */
export function bandRequest(input: BandRequestInput): BandRequest {
  const present = input.present ?? NOTHING_PRESENT;
  return {
    messages: input.transcript.messages,
    start: input.start,
    end: input.end,
    budgetTokens: Math.floor(input.budgetTokens),
    countTokens: input.countTokens,
    userRole: 'user',
    presentLines: present.lines,
    presentPhrases: present.phrases,
    presentIdentifiers: present.identifiers,
    phrases: input.transcript.phrases,
    pinned: input.pinned,
    withPreamble: input.withPreamble,
    weights: DEFAULT_LINE_VALUE_WEIGHTS,
    closetFraction: input.closetFraction ?? input.config.closetFraction,
    rawTokens: input.transcript.tokensBetween(input.start, input.end),
    ...(input.estimateScale === undefined ? {} : { estimateScale: input.estimateScale }),
    ...(input.lineTokens === undefined ? {} : { lineTokens: input.lineTokens }),
    ...(input.sealed?.length ? { sealed: input.sealed } : {}),
  };
}
