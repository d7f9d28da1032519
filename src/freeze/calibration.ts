/**
 * How the host's measured prompt tokens relate to the session's own count of the same view:
 * `measured ≈ factor × counted + overhead`. The overhead is what the provider bills outside the
 * history (system prompt sent apart, tool schemas); the factor is a tokenizer difference (a
 * provider counting more tokens than the session's counter). Never below the session's count.
 * Frozen state carries it, so it lives here; the session updates it (session/calibration.ts).
 */
export interface Calibration {
  readonly factor: number;
  readonly overhead: number;
  /** The observation the factor is solved against: an earlier view of clearly different size. */
  readonly anchor: readonly [counted: number, measured: number] | null;
}

/** The session never solves the factor above this: a tokenizer counting three times as many tokens is a misreading. */
export const MAX_CALIBRATION_FACTOR = 3;

export const NEUTRAL_CALIBRATION: Calibration = { factor: 1, overhead: 0, anchor: null };
