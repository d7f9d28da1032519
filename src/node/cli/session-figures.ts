/** What `warpfold report` shows for one session (and, added up, for all of them). */
export interface SessionFigures {
  readonly file: string;
  readonly format: string;
  readonly model: string | null;
  readonly ceiling: number;
  /** The model's window (the ceiling when the model is unknown): raw calls above it would overflow. */
  readonly window: number;
  readonly priceClass: string;
  readonly calls: number;
  readonly rawPeakTokens: number;
  readonly overflowCalls: number;
  /** Input cost of the session's model calls, USD, per strategy; null when the strategy could not run. */
  readonly cost: {
    readonly raw: number;
    readonly truncate: number | null;
    readonly clear: number | null;
    readonly warpfold: number;
  };
  /** Share of warpfold's prompt tokens read from the cache, percent. */
  readonly warpfoldCachePercent: number;
  readonly warpfoldTokens: number;
  readonly warpfoldCachedTokens: number;
  readonly warpfoldPeakTokens: number;
  /** Identifiers an agent used again that were still in warpfold's view, percent; null when none were used again. */
  readonly retentionPercent: number | null;
  readonly needles: number;
  readonly needlesKept: number;
  /** Milliseconds spent in warpfold's prepare() over the whole session. */
  readonly foldMilliseconds: number;
  /** Lines or records the reader skipped. */
  readonly skippedLines: number;
  /** prepare() calls that threw (the call then went out raw). */
  readonly errors: number;
}

export interface ReportTotal {
  readonly sessions: number;
  readonly calls: number;
  readonly rawPeakTokens: number;
  readonly overflowCalls: number;
  readonly cost: SessionFigures['cost'];
  readonly warpfoldCachePercent: number;
  readonly retentionPercent: number | null;
  readonly foldMilliseconds: number;
}
