import { bandedStrategy } from './banded.ts';
import { clearStrategy } from './clear.ts';
import { maskStrategy } from './mask.ts';
import { rawStrategy } from './raw.ts';
import { sawtoothLinesStrategy, sawtoothStrategy } from './sawtooth.ts';
import { summarizeStandInStrategy } from './summarize-stand-in.ts';
import { truncateStrategy } from './truncate.ts';
import type { StrategyDefinition } from './types.ts';

/** Every baseline, in the order reports list them; warpfold is added by whoever runs the comparison. */
export const BASELINE_STRATEGIES: readonly StrategyDefinition[] = [
  rawStrategy,
  truncateStrategy,
  maskStrategy,
  clearStrategy,
  bandedStrategy,
  sawtoothStrategy,
  sawtoothLinesStrategy,
  summarizeStandInStrategy,
];
