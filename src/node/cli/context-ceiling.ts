import { resolveContextBudget } from '../../budget/resolve-context-budget.ts';
import type { Dialect } from '../../messages/types.ts';
import type { TranscriptFormat } from '../../transcripts/types.ts';
import type { CliOutput } from './cli-output.ts';

/** The ceiling of the benchmark's replays: used when no model or ceiling is known. */
export const FALLBACK_CEILING = 16_000;

export interface SessionCeiling {
  /** The prompt budget the fold works under. */
  readonly ceiling: number;
  /** The model's whole window when the model is known; the ceiling otherwise. */
  readonly window: number;
  readonly model: string | undefined;
  /** Where the ceiling came from. */
  readonly source: 'ceiling' | 'model' | 'transcript' | 'fallback';
}

/** The transport a transcript came through, as `resolveContextBudget` names engines. */
export function engineOf(format: TranscriptFormat, dialect: Dialect): string {
  if (format === 'claude-code-jsonl') return 'claude-cli';
  if (format === 'codex-rollout-jsonl') return 'codex';
  if (format === 'gemini-cli-json' || format === 'gemini-cli-jsonl') return 'gemini';
  return dialect === 'anthropic' ? 'claude' : dialect === 'gemini' ? 'gemini' : 'openai';
}

function windowOf(engine: string, model: string): { ceiling: number; window: number } | null {
  try {
    const budget = resolveContextBudget({ engine, model });
    return { ceiling: budget.pressureCeilingTokens, window: budget.contextWindowTokens };
  } catch {
    return null;
  }
}

/**
 * `--ceiling` first, then `--model` through `resolveContextBudget`, then the model the transcript
 * records; the benchmark's 16,000 when none is known (said once).
 */
export function ceilingForSession(
  options: { ceiling?: number; model?: string },
  recordedModel: string | undefined,
  engine: string,
  output: CliOutput,
): SessionCeiling {
  const model = options.model ?? recordedModel;
  const known = model === undefined ? null : windowOf(engine, model);
  if (options.ceiling !== undefined)
    return { ceiling: options.ceiling, window: known?.window ?? options.ceiling, model, source: 'ceiling' };
  if (known !== null) return { ...known, model, source: options.model !== undefined ? 'model' : 'transcript' };
  if (options.model !== undefined)
    output.noticeOnce(
      `window:${options.model}`,
      `no context window known for "${options.model}": folding at ${FALLBACK_CEILING.toLocaleString('en-US')} tokens (pass --ceiling N)`,
    );
  else
    output.noticeOnce(
      `window:${model ?? ''}`,
      `${model === undefined ? 'no model recorded' : `no context window known for "${model}"`}: folding at ${FALLBACK_CEILING.toLocaleString('en-US')} tokens (pass --ceiling N or --model M)`,
    );
  return { ceiling: FALLBACK_CEILING, window: FALLBACK_CEILING, model, source: 'fallback' };
}
