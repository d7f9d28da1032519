import { DEFAULT_LINE_VALUE_WEIGHTS, type LineValueWeights } from './line-value.ts';
import { DEFAULT_WINDOW_FRACTION } from '../closet/render-closet.ts';

/**
 * Geometry of folding, as fractions of the session's ceiling so one config serves an 8,000-token
 * and a 1,000,000-token window alike.
 */
export interface FoldConfig {
  /** Raw tail kept after an epoch (0: only the live step stays raw; the newest stretch folds at the highest fidelity instead). */
  readonly tailFraction: number;
  /** A new band takes at most this share of the tokens it folds… */
  readonly bandRatio: number;
  /** …and at most this share of the ceiling. */
  readonly bandFraction: number;
  /** All bands together; past it the newest bands re-fold (see `mergeFraction`). */
  readonly bandsFraction: number;
  /**
   * All bands together after a merge. A merge re-folds only the newest bands it needs, so older
   * sealed bands (and the cache over them) survive; it re-folds all of them only when the newer
   * history would otherwise end up sparser than the older.
   */
  readonly mergeFraction: number;
  /**
   * Share of the merge target a merge that re-folds every band may fill. Filled to the target, the
   * merged band leaves no room, so every later merge re-folds everything again (and rewrites the
   * whole cached prefix). Absent (as in configs saved before it existed): 1.
   */
  readonly fullMergeShare?: number;

  /** Share of a band that guarantees a skeleton line to the newest calls; older ones compete on value. */
  readonly callShare: number;
  /** Share of a band given to the Coordinate Closet. */
  readonly closetFraction: number;
  /**
   * Share of the closet given to windows (a value in the raw words around its newest sighting);
   * the rest holds bare values. Absent (as in configs saved before it existed): 0.5.
   */
  readonly closetWindowFraction?: number;
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
  /** Apply the tail cap from the first call, not only once the session has met its ceiling. */
  readonly alwaysOn?: boolean;
  /** Share of the ceiling a hard-epoch rebirth seed may take. */
  readonly seedFraction: number;
  /**
   * At an epoch, the raw tail's tool outputs and answered calls together take at most this share
   * of the ceiling: the largest are shown clipped to one level (head and tail, the cut marked, the
   * identifiers of the cut named), so one huge output, a step of parallel ones, or a Write that
   * carries a whole file never forces the sealed bands to re-fold; they fold whole into the next
   * band. Absent (as in configs saved before it existed), messages are clipped only when one alone
   * does not fit.
   */
  readonly liveOutputFraction?: number;
  /**
   * However many outputs the step has, each keeps at least this share of the ceiling, so a step
   * of parallel reads may take more than `liveOutputFraction` together. Absent: 0.
   */
  readonly liveOutputFloorFraction?: number;
  readonly lineWeights: LineValueWeights;
}

/**
 * Roomy profile (ceilings of 16,000 tokens and up): bands may take 78% of the ceiling, merges
 * bring them back to 60%, the raw tail folds once it passes a quarter of the ceiling or the raw
 * working set (see `tailCapTokens`). What each value did when it was
 * chosen: docs/tuning.md.
 */
export const DEFAULT_FOLD_CONFIG: FoldConfig = Object.freeze({
  tailFraction: 0,
  bandRatio: 0.45,
  // the first fold keeps about `bandRatio` of what it folds, as later folds do
  bandFraction: 0.38,
  bandsFraction: 0.78,
  // answered calls clip live, so a merge may keep more
  mergeFraction: 0.6,
  // a full merge leaves room, so the next merge need not re-fold every band
  fullMergeShare: 0.9,
  // identifier windows, without crowding out the agent's own lines
  closetFraction: 0.12,
  // values in their words where the closet has room
  closetWindowFraction: 0.6,
  callShare: 0.04,
  headFraction: 0.3,
  safetyFraction: 0.01,
  tailTriggerFraction: 0.25,
  seedFraction: 0.5,
  // one huge output never forces the sealed bands to re-fold
  liveOutputFraction: 0.1,
  // no per-output floor: a step of parallel reads must not fill the view
  liveOutputFloorFraction: 0,
  lineWeights: DEFAULT_LINE_VALUE_WEIGHTS,
});

/**
 * Tight profile (ceilings of 8,000 tokens and below): the head and the live step do not shrink
 * with the ceiling, so memory takes a larger share, and exact identifiers weigh more because
 * far fewer of their lines fit.
 */
export const TIGHT_FOLD_CONFIG: FoldConfig = Object.freeze({
  ...DEFAULT_FOLD_CONFIG,
  bandsFraction: 0.8,
  // a merged band leaves room for new ones, or every epoch merges again
  mergeFraction: 0.43,
  // small merged bands need all their room
  fullMergeShare: 1,
  // a small view keeps more of each live output
  liveOutputFraction: 0.15,
  // a small first band leaves room for the working set
  bandFraction: 0.3,
  // bands that merge often are the only record of most identifiers
  closetFraction: 0.2,
  // a small closet needs bare values more than windows
  closetWindowFraction: 0.5,
  // a task statement does not shrink with the ceiling
  headFraction: 0.4,
  // the skeletons of the newest calls are the record of what was just done
  callShare: 0.12,
  // tool output rarely fits at all; echoed output would crowd out the agent's own lines
  lineWeights: { ...DEFAULT_LINE_VALUE_WEIGHTS, identifier: 0.8, outputEchoed: 0 },
});

/** Folds as soon as the raw tail passes a fifth of the ceiling (or the raw working set), from the first call on. */
export const ALWAYS_ON_FOLD_CONFIG: FoldConfig = Object.freeze({
  ...DEFAULT_FOLD_CONFIG,
  tailTriggerFraction: 0.2,
  alwaysOn: true,
});

/** The raw working set (the last few tool outputs) is absolute: the tail cap never goes below it. */
export const MIN_TAIL_CAP_TOKENS = 4_000;
/**
 * Where the window has room, the working set kept raw grows to this many tokens (at most
 * RAW_WORKING_SET_SHARE of the ceiling): the size of an agent's last few steps does not grow with
 * the window, so ceilings from 32,000 up keep their quarter (docs/tuning.md).
 */
export const RAW_WORKING_SET_TOKENS = 7_200;
/** The working set leaves most of a small window to the bands: at 8,000 the floor above holds. */
export const RAW_WORKING_SET_SHARE = 0.45;

/** Tokens the raw tail may reach before it folds under the ceiling (see `tailTriggerFraction`). */
export function tailCapTokens(config: FoldConfig, ceiling: number | null): number {
  if (ceiling === null || config.tailTriggerFraction === false) return Number.POSITIVE_INFINITY;
  const workingSet = Math.max(MIN_TAIL_CAP_TOKENS, Math.min(RAW_WORKING_SET_TOKENS, ceiling * RAW_WORKING_SET_SHARE));
  return Math.max(ceiling * config.tailTriggerFraction, workingSet);
}

const TIGHT_CEILING = 8_000;
const ROOMY_CEILING = 16_000;

/** Defaults for a ceiling: the tight profile at 8,000 tokens and below, the roomy one from 16,000, log-interpolated between. */
export function foldConfigForCeiling(ceiling: number | null): FoldConfig {
  if (ceiling === null || ceiling >= ROOMY_CEILING) return DEFAULT_FOLD_CONFIG;
  if (ceiling <= TIGHT_CEILING) return TIGHT_FOLD_CONFIG;
  const t = Math.log2(ROOMY_CEILING / ceiling); // 0 at 16k, 1 at 8k
  const mix = (roomy: number, tight: number) => roomy + (tight - roomy) * t;
  return {
    ...DEFAULT_FOLD_CONFIG,
    bandFraction: mix(DEFAULT_FOLD_CONFIG.bandFraction, TIGHT_FOLD_CONFIG.bandFraction),
    bandsFraction: mix(DEFAULT_FOLD_CONFIG.bandsFraction, TIGHT_FOLD_CONFIG.bandsFraction),
    mergeFraction: mix(DEFAULT_FOLD_CONFIG.mergeFraction, TIGHT_FOLD_CONFIG.mergeFraction),
    fullMergeShare: mix(DEFAULT_FOLD_CONFIG.fullMergeShare ?? 1, TIGHT_FOLD_CONFIG.fullMergeShare ?? 1),
    closetFraction: mix(DEFAULT_FOLD_CONFIG.closetFraction, TIGHT_FOLD_CONFIG.closetFraction),
    closetWindowFraction: mix(
      DEFAULT_FOLD_CONFIG.closetWindowFraction ?? DEFAULT_WINDOW_FRACTION,
      TIGHT_FOLD_CONFIG.closetWindowFraction ?? DEFAULT_WINDOW_FRACTION,
    ),
    headFraction: mix(DEFAULT_FOLD_CONFIG.headFraction, TIGHT_FOLD_CONFIG.headFraction),
    liveOutputFraction: mix(DEFAULT_FOLD_CONFIG.liveOutputFraction ?? 1, TIGHT_FOLD_CONFIG.liveOutputFraction ?? 1),
    callShare: mix(DEFAULT_FOLD_CONFIG.callShare, TIGHT_FOLD_CONFIG.callShare),
    lineWeights: {
      ...DEFAULT_LINE_VALUE_WEIGHTS,
      identifier: mix(DEFAULT_LINE_VALUE_WEIGHTS.identifier, TIGHT_FOLD_CONFIG.lineWeights.identifier),
      outputEchoed: mix(DEFAULT_LINE_VALUE_WEIGHTS.outputEchoed, TIGHT_FOLD_CONFIG.lineWeights.outputEchoed),
    },
  };
}

export type FoldConfigOverrides = Partial<Omit<FoldConfig, 'lineWeights'>> & {
  readonly lineWeights?: Partial<LineValueWeights>;
};

/** The ceiling's defaults with the host's overrides on top. */
export function resolveFoldConfig(
  overrides: FoldConfigOverrides | undefined,
  ceiling: number | null = null,
): FoldConfig {
  const base = foldConfigForCeiling(ceiling);
  if (!overrides) return base;
  return { ...base, ...overrides, lineWeights: { ...base.lineWeights, ...overrides.lineWeights } };
}
