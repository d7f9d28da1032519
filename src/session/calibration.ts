import { type Calibration, MAX_CALIBRATION_FACTOR } from '../freeze/calibration.ts';

/** Views must differ by this many counted tokens before their difference says anything about the factor. */
const MIN_SPREAD = 1_000;

export function observeCalibration(calibration: Calibration, counted: number, measured: number): Calibration {
  if (!(counted > 0 && measured > 0)) return calibration;
  const anchor = calibration.anchor;
  let factor = calibration.factor;
  if (anchor && Math.abs(counted - anchor[0]) >= MIN_SPREAD)
    factor = Math.min(MAX_CALIBRATION_FACTOR, Math.max(1, (measured - anchor[1]) / (counted - anchor[0])));
  const overhead = Math.max(0, measured - factor * counted);
  const keepAnchor = anchor && Math.abs(counted - anchor[0]) < MIN_SPREAD;
  return { factor, overhead, anchor: keepAnchor ? anchor : [counted, measured] };
}

/** The most the session's own count may reach so that the measured prompt stays within `budget`. */
export function countedBudget(calibration: Calibration, budget: number): number {
  return Math.max(0, (budget - calibration.overhead) / calibration.factor);
}
