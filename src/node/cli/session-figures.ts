import type { CeilingSource } from '../../budget/ceiling-rule.ts';
import type { MeasuredSpend } from './measured-spend.ts';

/** The price a row used: a model table entry (with its page and date) or the scorer's class. */
export interface RowPrice {
  readonly id: string;
  readonly source: string | null;
  readonly checked: string | null;
}

/** Retention at need below this is marked in the table and flagged in JSON and CSV. */
export const RETENTION_TARGET_PERCENT = 90;

/** What `warpfold report` shows for one session (and, added up, for all of them). */
export interface SessionFigures {
  readonly file: string;
  readonly format: string;
  readonly model: string | null;
  readonly ceiling: number;
  readonly ceilingSource: CeilingSource;
  readonly ceilingExplanation: string;
  /** The model's window (the ceiling when the model is unknown): raw calls above it would overflow. */
  readonly window: number;
  /** Null when the model is unpriced: every cost of the row is then null. */
  readonly price: RowPrice | null;
  readonly calls: number;
  /** What the transcript records the provider billed; null when it records no usage. */
  readonly measured: MeasuredSpend | null;
  /** Replayed calls whose counts were calibrated to a recorded input. */
  readonly calibratedCalls: number;
  /** The largest raw prompt of the replay (calibrated where usage is recorded). */
  readonly rawPeakTokens: number;
  readonly overflowCalls: number;
  /** Replayed input cost of the session's model calls, USD, per strategy; null when unpriced. */
  readonly cost: {
    readonly raw: number | null;
    readonly truncate: number | null;
    readonly clear: number | null;
    readonly warpfold: number | null;
  };
  /** Share of warpfold's prompt tokens read from the cache, percent. */
  readonly warpfoldCachePercent: number;
  readonly warpfoldTokens: number;
  readonly warpfoldCachedTokens: number;
  readonly warpfoldPeakTokens: number;
  /** Identifiers an agent used again that were still in warpfold's view, percent; 100 when none was used again. */
  readonly retentionPercent: number;
  readonly retentionBelowTarget: boolean;
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
  /** Measured spend of the sessions that record usage at known prices; null when none does. */
  readonly spent: number | null;
  /** Sessions the spend leaves out: no usage recorded, or unpriced. */
  readonly spentMissing: number;
  readonly cost: {
    readonly raw: number | null;
    readonly truncate: number | null;
    readonly clear: number | null;
    readonly warpfold: number | null;
  };
  readonly warpfoldCachePercent: number;
  readonly retentionPercent: number;
  readonly retentionBelowTarget: boolean;
  readonly foldMilliseconds: number;
}
