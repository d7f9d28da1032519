import { DEFAULT_LINE_VALUE_WEIGHTS, type LineValueWeights } from './line-value.ts';

/**
 * Geometry of folding, as fractions of the session's ceiling so one config serves an 8,000-token
 * and a 1,000,000-token window alike.
 */
export interface FoldConfig {
  /** Raw tail kept after an epoch. */
  readonly tailFraction: number;
  /** A new band takes at most this share of the tokens it folds… */
  readonly bandRatio: number;
  /** …and at most this share of the ceiling. */
  readonly bandFraction: number;
  /** All bands together; past it they merge into one. */
  readonly bandsFraction: number;
  /**
   * All bands together after a merge. A merge re-folds only the newest bands it needs, so older
   * sealed bands (and the cache over them) survive; it re-folds all of them only when the newer
   * history would otherwise end up sparser than the older.
   */
  readonly mergeFraction: number;

  /** Share of a band given to the Coordinate Closet. */
  readonly closetFraction: number;
  /** Leading system prompt and first instruction stay raw while they take at most this share. */
  readonly headFraction: number;
  /** Headroom kept below the ceiling. */
  readonly safetyFraction: number;
  /**
   * Fold once the raw tail passes this share of the ceiling, even under it. With no raw tail
   * kept at an epoch, an epoch writes only its new band, so folding often costs no more cache
   * writes than folding rarely, and the shorter tail is cheaper to read on every call.
   * `false` folds only at the ceiling.
   */
  readonly tailTriggerFraction: number | false;
  /** Share of the ceiling a hard-epoch rebirth seed may take. */
  readonly seedFraction: number;
  readonly lineWeights: LineValueWeights;
}

/** Folds only when the view would pass the ceiling; keeps as much raw history as fits. */
export const DEFAULT_FOLD_CONFIG: FoldConfig = Object.freeze({
  tailFraction: 0.3,
  bandRatio: 0.45,
  bandFraction: 0.3,
  bandsFraction: 0.5,
  mergeFraction: 0.4,
  closetFraction: 0.06,
  headFraction: 0.3,
  safetyFraction: 0.01,
  tailTriggerFraction: false,
  seedFraction: 0.5,
  lineWeights: DEFAULT_LINE_VALUE_WEIGHTS,
});

/** Keeps the view lean all the time: folds once it passes half the ceiling. */
export const ALWAYS_ON_FOLD_CONFIG: FoldConfig = Object.freeze({ ...DEFAULT_FOLD_CONFIG, tailTriggerFraction: 0.2 });

export type FoldConfigOverrides = Partial<Omit<FoldConfig, 'lineWeights'>> & { readonly lineWeights?: Partial<LineValueWeights> };

export function resolveFoldConfig(overrides: FoldConfigOverrides | undefined): FoldConfig {
  if (!overrides) return DEFAULT_FOLD_CONFIG;
  return { ...DEFAULT_FOLD_CONFIG, ...overrides, lineWeights: { ...DEFAULT_FOLD_CONFIG.lineWeights, ...overrides.lineWeights } };
}
