import type { EpochReason, FoldFreezeState } from './freeze-state.ts';
import { hasSealedPrefix } from './freeze-state.ts';

export interface FreezeConfig {
  /** `false`: every call rebuilds its fold from scratch (deterministic, never cache-hot). */
  readonly enabled: boolean;
  /** Provider cache lifetime; past it the cache is cold and a refold costs nothing extra. */
  readonly ttlMs: number;
  /** A raw tail longer than this many characters is folded even under the ceiling. */
  readonly maxTailChars: number;
  /** With a cold cache, refold early once the view passes this share of the ceiling. */
  readonly coldRefoldFraction: number;
}

export const DEFAULT_FREEZE_CONFIG: FreezeConfig = Object.freeze({
  enabled: true,
  ttlMs: 300_000,
  maxTailChars: Number.POSITIVE_INFINITY,
  coldRefoldFraction: 0.7,
});

export interface FreezeInput {
  /** First raw index that differs from what the state saw, or -1. */
  readonly changedAt: number;
  /** The state was restored from storage and the history does not hold what it sealed. */
  readonly restoredMismatch: boolean;
  readonly configFingerprint: number;
  /** Tokens of the view if the prefix were reused, calibrated to host telemetry. */
  readonly viewTokens: number;
  /** Fold when the view passes this (the ceiling less headroom, or the always-on trigger). */
  readonly foldAtTokens: number;
  readonly ceilingTokens: number;
  readonly tailChars: number;
  /** Tokens of the raw tail, and the cap past which it is folded even under the ceiling. */
  readonly tailTokens: number;
  readonly tailCapTokens: number;
  /** Apply the tail cap before anything is sealed too. */
  readonly alwaysOn: boolean;
  readonly now: number;
  readonly hardEpoch: boolean;
  /** Host-measured prompt tokens reached the ceiling. */
  readonly measuredAtCeiling: boolean;
}

export type FreezeDecision =
  | { readonly action: 'reuse' }
  | { readonly action: 'refold'; readonly reason: EpochReason; readonly rebuild: boolean };

/** The epoch state machine: reuse the sealed prefix, or refold for one typed reason. First matching rule wins. */
export function evaluateFoldFreeze(state: FoldFreezeState, input: FreezeInput, config: FreezeConfig): FreezeDecision {
  if (input.hardEpoch || input.measuredAtCeiling) return { action: 'refold', reason: 'hard-epoch', rebuild: true };
  const sealed = hasSealedPrefix(state);
  if (sealed && input.configFingerprint !== state.configFingerprint)
    return { action: 'refold', reason: 'config-changed', rebuild: true };
  if (input.restoredMismatch) return { action: 'refold', reason: 'restored-mismatch', rebuild: true };
  if (input.changedAt >= 0 && input.changedAt < state.coveredEnd)
    return { action: 'refold', reason: 'boundary-changed', rebuild: true };
  if (!config.enabled && input.viewTokens > input.foldAtTokens)
    return { action: 'refold', reason: sealed ? 'over-budget' : 'first-call', rebuild: true };
  if (input.viewTokens > input.foldAtTokens)
    return { action: 'refold', reason: state.lastCallAt === null ? 'first-call' : 'over-budget', rebuild: false };
  // the token cap keeps a session lean only once it has met its ceiling: one that never does stays raw
  if (input.tailChars > config.maxTailChars || ((sealed || input.alwaysOn) && input.tailTokens > input.tailCapTokens))
    return { action: 'refold', reason: 'tail-cap', rebuild: false };
  const cold = state.lastCallAt !== null && input.now - state.lastCallAt > config.ttlMs;
  if (cold && input.viewTokens > config.coldRefoldFraction * input.ceilingTokens)
    return { action: 'refold', reason: 'cold-cache', rebuild: false };
  return { action: 'reuse' };
}
