import type { CliOutput } from './cli-output.ts';
import type { IdentifiersOf, ReplayStrategyDefinition } from './report-replay.ts';

export interface LoadedBaselines {
  readonly strategies: readonly ReplayStrategyDefinition[];
  readonly identifiers: IdentifiersOf | null;
}

/**
 * Truncation, clearing and the scorer's identifiers from `warpfold/baselines`, loaded lazily: they
 * count with the o200k tokenizer, so without it the report shows raw and warpfold only.
 */
export async function loadBaselines(output: CliOutput): Promise<LoadedBaselines> {
  output.noticeOnce('baselines', 'truncation and clearing baselines are not available in this build');
  return { strategies: [], identifiers: null };
}
