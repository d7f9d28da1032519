/**
 * Geometry of folding. Every number is derived from something outside any corpus (a provider's
 * counting, the cache's prices, the size of an agent's last few steps, the ceiling itself), and
 * one set serves every ceiling. The history of measured values is in docs/tuning.md.
 */
export interface FoldConfig {
  /** Headroom below the ceiling: a plain rendering's count and a provider's differ by about a percent. */
  readonly safetyFraction: number;
  /** The system prompt and first instruction stay raw while they take at most a third of the ceiling: read on every call, they never crowd out the history. */
  readonly headFraction: number;
  /** The raw tail a window keeps before it folds again, as a share of the ceiling: an agent reads whole files and logs, so its recent steps grow with the window it is given, and memory keeps the larger part of any window. */
  readonly workingSetShare: number;
  /** The live step (what the model is about to read) is shown whole while it takes at most this share of the ceiling; past it the bands give way first, and only what still cannot fit is clipped. */
  readonly liveStepShare: number;
  /** Steps the working set holds: once an output is no longer live, a band sizes it as one step at most, so one huge output does not swell the bands. */
  readonly outputsPerWorkingSet: number;
  /** A band keeps at most this share of what it folds: a fold frees more than half its stretch, so folds never chase each other. */
  readonly bandRatio: number;
  /** The bands together may take this share of the ceiling; the rest holds the head and the live step. */
  readonly bandsFraction: number;
  /**
   * Epochs a merge leaves room for: it brings the bands down by this many bands of a full working
   * set, so its rewrite of the cached prefix is paid back by the hot calls of the epochs that only
   * append a band before the next merge.
   */
  readonly epochsPerMerge: number;
  /** Share of a band for the lines around identifiers (two fifths; the agent's words and calls take the larger rest); what it leaves unused goes to lines. */
  readonly closetFraction: number;
  /** Fold under the ceiling from the first call on (once the working set is full), not only once the ceiling is met. */
  readonly alwaysOn?: boolean;
}

export const DEFAULT_FOLD_CONFIG: FoldConfig = Object.freeze({
  safetyFraction: 0.01,
  headFraction: 1 / 3,
  workingSetShare: 0.45,
  liveStepShare: 0.5,
  outputsPerWorkingSet: 4,
  bandRatio: 0.45,
  bandsFraction: 0.8,
  epochsPerMerge: 2,
  closetFraction: 0.4,
});

/** Folds as soon as the working set is full, from the first call on. */
export const ALWAYS_ON_FOLD_CONFIG: FoldConfig = Object.freeze({ ...DEFAULT_FOLD_CONFIG, alwaysOn: true });

/** Tokens the raw tail may reach before it folds under the ceiling: the working set. */
export function tailCapTokens(config: FoldConfig, ceiling: number | null): number {
  if (ceiling === null) return Number.POSITIVE_INFINITY;
  return ceiling * config.workingSetShare;
}

/** Tokens the live step's outputs may show together before they are clipped. */
export function liveOutputCap(config: FoldConfig, ceiling: number): number {
  return ceiling * config.liveStepShare;
}

/** Tokens of one folded output a band's budget counts: one step of the working set. */
export function foldedOutputCap(config: FoldConfig, ceiling: number): number {
  return tailCapTokens(config, ceiling) / config.outputsPerWorkingSet;
}

/** Where a merge brings the bands back to: their room less `epochsPerMerge` bands of a full working set. */
export function mergeTargetTokens(config: FoldConfig, ceiling: number): number {
  return Math.max(
    0,
    config.bandsFraction * ceiling - config.epochsPerMerge * config.bandRatio * tailCapTokens(config, ceiling),
  );
}

export type FoldConfigOverrides = Partial<FoldConfig>;

/** The defaults with the host's overrides on top; a setting given as undefined is absent. */
export function resolveFoldConfig(overrides: FoldConfigOverrides | undefined): FoldConfig {
  if (!overrides) return DEFAULT_FOLD_CONFIG;
  const given = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_FOLD_CONFIG, ...given };
}
