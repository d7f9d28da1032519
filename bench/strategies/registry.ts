import { BASELINE_STRATEGIES, type StrategyDefinition } from '../../src/baselines/index.ts';
import { loadWarpfold } from './warpfold.ts';

export const ALL_STRATEGY_NAMES: readonly string[] = [
  ...BASELINE_STRATEGIES.map((strategy) => strategy.name),
  'warpfold',
];

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

export async function selectStrategies(
  names: readonly string[],
  source: EngineSource = {},
): Promise<StrategySelection> {
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
