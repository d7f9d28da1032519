import type { IdentifierKind } from '../text/identifier-kinds.ts';
import type { FoldLineKind } from './fold-line.ts';

/** One folded stretch of history as the view carries it, built by build-band.ts and read by receipts, contents and frozen state. */
export interface Band {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Tokens of the synthetic user message that carries the band: an upper bound from the session's counter (see messageTokensUpperBound in build-band.ts). */
  readonly tokens: number;
  readonly lineKeys: readonly string[];
  /** Exact tokens per estimated token of the picked lines, for the next band's first guess. */
  readonly estimateScale: number;
  /**
   * Where the band's lines came from, so a merge far back in a long history can re-fold the band
   * from what it shows instead of re-reading its raw messages. Absent on a band saved before
   * format version 3: that band re-folds from its raw messages.
   */
  readonly origins?: BandOrigins;
}

/** Where one body line of a band came from. */
export interface BandLineOrigin {
  readonly messageIndex: number;
  readonly kind: FoldLineKind;
  /** A skeleton line's call: its position among its message's calls. */
  readonly call?: number;
}

/** A closet value of a band, with the newest message the band took it from. */
export interface BandClosetOrigin {
  readonly value: string;
  readonly kind: IdentifierKind;
  readonly messageIndex: number;
}

export interface BandOrigins {
  /** Index among the band text's lines of its first body line (after the header and the omitted-calls line). */
  readonly firstLine: number;
  /** One per body line, in order; the closet's lines follow them. */
  readonly lines: readonly BandLineOrigin[];
  /** Calls the band counts without a line, by the name its omitted-calls line gives them, in its order. */
  readonly omitted: ReadonlyArray<readonly [name: string, count: number]>;
  readonly closet: readonly BandClosetOrigin[];
}
