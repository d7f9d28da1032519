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
}
