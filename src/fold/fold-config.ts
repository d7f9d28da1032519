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
  /** Size of a merged band. */
  readonly mergeFraction: number;
  /** Share of a band given to the Coordinate Closet. */
  readonly closetFraction: number;
  /** Leading system prompt and first instruction stay raw while they take at most this share. */
  readonly headFraction: number;
  /** Headroom kept below the ceiling. */
  readonly safetyFraction: number;
  /** Fold as soon as the view passes this share of the ceiling (always-on folding); `false` folds only at the ceiling. */
  readonly foldTriggerFraction: number | false;
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
  foldTriggerFraction: false,
  seedFraction: 0.5,
  lineWeights: DEFAULT_LINE_VALUE_WEIGHTS,
});

/** Keeps the view lean all the time: folds once it passes half the ceiling. */
export const ALWAYS_ON_FOLD_CONFIG: FoldConfig = Object.freeze({ ...DEFAULT_FOLD_CONFIG, foldTriggerFraction: 0.5, tailFraction: 0.2 });

export function resolveFoldConfig(overrides: Partial<FoldConfig> | undefined): FoldConfig {
  return overrides ? { ...DEFAULT_FOLD_CONFIG, ...overrides } : DEFAULT_FOLD_CONFIG;
}
