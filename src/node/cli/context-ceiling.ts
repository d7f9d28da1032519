import { resolveCeiling, type CeilingSource } from '../../budget/ceiling-rule.ts';
import { BudgetInputError } from '../../budget/budget-input-error.ts';
import { contextWindowForModel } from '../../budget/context-window-for-model.ts';
import type { Dialect } from '../../messages/types.ts';
import type { TranscriptFormat } from '../../transcripts/types.ts';
import { UsageError } from './usage-error.ts';

export interface SessionCeiling {
  /** The prompt budget the fold works under. */
  readonly ceiling: number;
  /** The model's whole window when the model is known; the ceiling otherwise. */
  readonly window: number;
  readonly model: string | undefined;
  /** Where the ceiling came from, by the one ceiling rule (`resolveCeiling`). */
  readonly source: CeilingSource;
  readonly explanation: string;
}

/** The transport a transcript came through, as `resolveContextBudget` names engines. */
export function engineOf(format: TranscriptFormat, dialect: Dialect): string {
  if (format === 'claude-code-jsonl') return 'claude-cli';
  if (format === 'codex-rollout-jsonl') return 'codex';
  if (format === 'gemini-cli-json' || format === 'gemini-cli-jsonl') return 'gemini';
  return dialect === 'anthropic' ? 'claude' : dialect === 'gemini' ? 'gemini' : 'openai';
}

/**
 * The ceiling of `report`, `inspect` and `fold`, by the gateway's rule: `--ceiling`, else the
 * model's budget (`--model`, else the recorded model) capped at 200,000, else 200,000.
 */
export function ceilingForSession(
  options: { ceiling?: number; model?: string },
  recordedModel: string | undefined,
  engine: string,
  command: string,
): SessionCeiling {
  const model = options.model ?? recordedModel;
  let choice;
  try {
    choice = resolveCeiling({ configured: options.ceiling, model, engine });
  } catch (error) {
    if (error instanceof BudgetInputError) throw new UsageError(`--ceiling: ${error.message}`, command);
    throw error;
  }
  const window = (model === undefined ? null : contextWindowForModel(model, engine)) ?? choice.tokens;
  return { ceiling: choice.tokens, window, model, source: choice.source, explanation: choice.explanation };
}
