import { ProviderInputError } from '../provider-error.ts';

/**
 * Share of the model's context window at which a reconstruction is due even under the fold
 * ceiling: Codex compacts on its own near the window's end, and a warpfold seed should come first.
 */
export const CODEX_CONTEXT_WINDOW_SHARE = 0.85;

export type CodexReconstructionReason = 'over-ceiling' | 'near-context-window' | 'under-budget' | 'no-usage';

export interface CodexReconstructionDecision {
  readonly due: boolean;
  readonly reason: CodexReconstructionReason;
}

/**
 * Whether to rebuild the thread from a folded seed, from the last call's measured input
 * (`token_count` `last_token_usage.input_tokens`, cached tokens included): due at the fold
 * ceiling, or near the context window.
 */
export function codexReconstructionDue(options: {
  readonly measuredInputTokens: number | undefined;
  readonly pressureCeiling: number;
  readonly contextWindow?: number;
}): CodexReconstructionDecision {
  if (!Number.isFinite(options.pressureCeiling) || options.pressureCeiling <= 0)
    throw new ProviderInputError(
      'codex-cli',
      'pressureCeiling',
      `expected a positive number, got ${String(options.pressureCeiling)}`,
    );
  const measured = options.measuredInputTokens;
  if (measured === undefined || !Number.isFinite(measured)) return { due: false, reason: 'no-usage' };
  if (measured >= options.pressureCeiling) return { due: true, reason: 'over-ceiling' };
  if (options.contextWindow !== undefined && measured >= options.contextWindow * CODEX_CONTEXT_WINDOW_SHARE)
    return { due: true, reason: 'near-context-window' };
  return { due: false, reason: 'under-budget' };
}
