import { FoldOptionsError } from '../messages/fold-input-error.ts';
import { checkFoldConfig } from './check-fold-config.ts';
import { Transcript, type TokenCounter } from '../messages/transcript.ts';
import type { ProviderMessage } from '../messages/types.ts';
import { writeSyntheticMessage } from '../messages/write-synthetic.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { describeValue } from '../text/describe-value.ts';
import { buildBand } from './build-band.ts';
import { bandRequest } from './band-request.ts';
import { DEFAULT_FOLD_CONFIG, type FoldConfig } from './fold-config.ts';
import { planActiveTurnStepFold } from './step-fold.ts';
import { FOLD_ACKNOWLEDGEMENT } from './fold-acknowledgement.ts';
import { leadingSystemCount } from '../messages/leading-system.ts';
import { syntheticMessageTokens } from '../messages/synthetic-tokens.ts';

export interface FoldContextOptions {
  /** Fold this many leading turns (default: all but the last). */
  readonly turnsToFold?: number;
  /** Token budget of the fold block (default: `bandRatio` of what it replaces). */
  readonly budgetTokens?: number;
  readonly countTokens?: TokenCounter;
  readonly config?: FoldConfig;
  /** With a single marathon turn, keep this many newest steps whole (default 12). */
  readonly keepLastSteps?: number;
}

export interface FoldResult {
  readonly messages: ProviderMessage[];
  readonly turnsFolded: number;
  readonly messagesFolded: number;
  readonly originalTokens: number;
  readonly foldedTokens: number;
  readonly savingsPercent: number;
}

/**
 * One-shot fold without a session: leading system messages stay, the folded span becomes one
 * synthetic user + assistant pair in the history's dialect, the rest passes through as the same
 * objects. A single marathon turn folds its older steps and keeps its instruction verbatim.
 * A fold that would not be smaller than what it replaces is not made.
 */
export function foldContext(history: readonly ProviderMessage[], options: FoldContextOptions = {}): FoldResult {
  const countTokens = options.countTokens ?? estimateTokens;
  const config = options.config === undefined ? DEFAULT_FOLD_CONFIG : checkFoldConfig(options.config, 'config');
  const transcript = new Transcript(countTokens);
  transcript.sync(history);
  const total = transcript.tokensBetween(0, transcript.length);
  const unchanged: FoldResult = {
    messages: [...history],
    turnsFolded: 0,
    messagesFolded: 0,
    originalTokens: total,
    foldedTokens: total,
    savingsPercent: 0,
  };
  if (options.turnsToFold !== undefined && !(Number.isInteger(options.turnsToFold) && options.turnsToFold >= 0))
    throw new FoldOptionsError(
      'turnsToFold',
      `turnsToFold must be a whole number ≥ 0, got ${describeValue(options.turnsToFold)}`,
    );

  const head = leadingSystemCount(transcript.messages);
  const boundaries: number[] = [];
  for (let i = head; i < transcript.length; i++) if (transcript.messages[i].isTurnBoundary) boundaries.push(i);
  let start = head;
  let end: number;
  let pinned = -1;
  const turnsToFold = options.turnsToFold ?? Math.max(0, boundaries.length - 1);
  if (boundaries.length > 1 && turnsToFold > 0) {
    end = boundaries[Math.min(turnsToFold, boundaries.length - 1)];
  } else {
    // one marathon turn: its older steps fold, its instruction stays raw in front of the fold
    const plan = planActiveTurnStepFold(history, { keepLastSteps: options.keepLastSteps, countTokens });
    if (!plan) return unchanged;
    start = plan.steps[1].startIndex;
    end = plan.steps[plan.stepsToFold].endIndex;
    pinned = plan.steps[0].startIndex;
  }
  while (end > start && !transcript.isSafeCut(end)) end--;
  if (end <= start) return unchanged;
  const rawTokens = transcript.tokensBetween(start, end);
  const band = buildBand(
    bandRequest({
      transcript,
      config,
      countTokens,
      start,
      end,
      budgetTokens: options.budgetTokens ?? config.bandRatio * rawTokens,
      pinned,
      withPreamble: true,
    }),
  );
  const ack = writeSyntheticMessage(transcript.dialect, 'assistant', FOLD_ACKNOWLEDGEMENT);
  const ackTokens = syntheticMessageTokens(
    countTokens,
    transcript.dialect === 'gemini' ? 'model' : 'assistant',
    FOLD_ACKNOWLEDGEMENT,
  );
  if (band.tokens + ackTokens >= rawTokens) return unchanged;
  const messages = [
    ...history.slice(0, start),
    writeSyntheticMessage(transcript.dialect, 'user', band.text),
    ack,
    ...history.slice(end),
  ];
  const foldedTokens = total - rawTokens + band.tokens + ackTokens;
  return {
    messages,
    turnsFolded: transcript.turnsBetween(start, end),
    messagesFolded: end - start,
    originalTokens: total,
    foldedTokens,
    savingsPercent: Math.round((1000 * (total - foldedTokens)) / Math.max(1, total)) / 10,
  };
}
