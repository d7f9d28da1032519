import type { CliOutput } from './cli-output.ts';
import type { IdentifiersOf, Measure, ReplayStrategyDefinition } from './report-replay.ts';

export interface LoadedBaselines {
  readonly strategies: readonly ReplayStrategyDefinition[];
  readonly identifiers: IdentifiersOf | null;
  /** The baselines' memo of renderings and o200k counts: measuring through it keeps one rendering per message in memory. */
  readonly measure: Measure | undefined;
  /** Drops the baselines' token memo between sessions, so memory stays bounded by one session. */
  readonly forget: () => void;
}

const NONE: LoadedBaselines = { strategies: [], identifiers: null, measure: undefined, forget: () => {} };

/**
 * Truncation, clearing and the scorer's identifiers from `warpfold/baselines`, loaded lazily: they
 * count with the o200k tokenizer, so where it cannot load the report shows raw and warpfold only.
 */
export async function loadBaselines(output: CliOutput): Promise<LoadedBaselines> {
  try {
    const baselines = await import('../../baselines/index.ts');
    return {
      strategies: [baselines.truncateStrategy, baselines.clearStrategy] as unknown as ReplayStrategyDefinition[],
      identifiers: baselines.identifiers,
      measure: {
        rendered: (message) => baselines.renderedMessage(message as never),
        messageTokens: (message) => baselines.messageTokens(message as never),
      },
      forget: baselines.resetSharedTokenMemo,
    };
  } catch (error) {
    output.noticeOnce(
      'baselines',
      `truncation and clearing could not be loaded (${(error as Error).message}): their columns and retention stay empty`,
    );
    return NONE;
  }
}

export const NO_BASELINES = NONE;
