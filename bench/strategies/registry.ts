import { clearStrategy } from './clear.ts';
import { maskStrategy } from './mask.ts';
import { rawStrategy } from './raw.ts';
import { sawtoothLinesStrategy, sawtoothStrategy } from './sawtooth.ts';
import { summarizeStandInStrategy } from './summarize-stand-in.ts';
import { truncateStrategy } from './truncate.ts';
import type { StrategyDefinition } from './types.ts';
import { loadWarpfold } from './warpfold.ts';

export const BASELINE_STRATEGIES: readonly StrategyDefinition[] = [
  rawStrategy,
  truncateStrategy,
  maskStrategy,
  clearStrategy,
  sawtoothStrategy,
  sawtoothLinesStrategy,
  summarizeStandInStrategy,
];

export const ALL_STRATEGY_NAMES: readonly string[] = [...BASELINE_STRATEGIES.map((strategy) => strategy.name), 'warpfold'];

export interface StrategySelection {
  readonly definitions: StrategyDefinition[];
  /** Strategies asked for that could not run, with the reason (a missing engine, say). */
  readonly skipped: Array<{ name: string; reason: string }>;
}

export interface EngineSource {
  /** FoldSession module to load instead of src/index.ts (a built dist/index.js, another build). */
  readonly enginePath?: string;
  /** Extra FoldSession options, like the scorer's --options. */
  readonly engineOptions?: Record<string, unknown>;
}

export async function selectStrategies(names: readonly string[], source: EngineSource = {}): Promise<StrategySelection> {
  const definitions: StrategyDefinition[] = [];
  const skipped: Array<{ name: string; reason: string }> = [];
  for (const name of names) {
    if (name === 'warpfold') {
      const loaded = await loadWarpfold(source.enginePath, source.engineOptions);
      if ('definition' in loaded) definitions.push(loaded.definition);
      else skipped.push({ name, reason: loaded.missing });
      continue;
    }
    const baseline = BASELINE_STRATEGIES.find((strategy) => strategy.name === name);
    if (!baseline) throw new Error(`unknown strategy "${name}"; known: ${ALL_STRATEGY_NAMES.join(', ')}`);
    definitions.push(baseline);
  }
  return { definitions, skipped };
}
