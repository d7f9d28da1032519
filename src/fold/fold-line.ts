import type { NominatedIdentifier } from '../text/find-identifiers.ts';

/** What a line of a fold is, which sets its prefix and how much it is worth keeping. */
export type FoldLineKind = 'user' | 'assistant' | 'reasoning' | 'call' | 'argument' | 'output' | 'error';

export interface FoldLine {
  /** Chronological position inside the fold. */
  readonly order: number;
  /** Index of the source message, for recency. */
  readonly messageIndex: number;
  readonly kind: FoldLineKind;
  /** Source line identity: fragments of one long line share it and render joined. */
  readonly lineId: number;
  readonly fragment: number;
  readonly text: string;
  /** Whitespace-collapsed text, for de-duplication. */
  readonly key: string;
  /** Five-word phrase keys of the text. */
  readonly phrases: readonly number[];
  readonly identifiers: readonly NominatedIdentifier[];
  /** Identifiers whose latest occurrence in the fold is this line (set after all lines are read). */
  identifierValue: number;
  /** Expected usefulness of the words themselves, before identifiers. */
  readonly wordValue: number;
  readonly estimate: number;
  readonly mandatory: boolean;
  /** A skeleton line's call: its position among its message's calls. */
  readonly call?: number;
}

export const LINE_PREFIX: Record<FoldLineKind, string> = {
  user: '» ',
  assistant: '',
  reasoning: '∴ ',
  call: '',
  argument: '  ⋮ ',
  output: '  │ ',
  error: '  │ ',
};
