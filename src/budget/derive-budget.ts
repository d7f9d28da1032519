import type { CompressionProfile, ContextBudget } from './types.ts';

export interface BudgetNumbersInput {
  contextWindowTokens: number;
  inputLimitTokens: number | null;
  targetBandTokens: number | null;
  pressureCeilingTokens: number | null;
}

export type BudgetNumbers = Pick<
  ContextBudget,
  | 'outputReserveTokens'
  | 'safetyMarginTokens'
  | 'messageCeilingTokens'
  | 'pressureCeilingTokens'
  | 'prefixSaturationTokens'
  | 'bandTokens'
  | 'tailEpochCapTokens'
  | 'compressionProfile'
  | 'evictionPolicy'
>;

/*
 * Every number is a continuous, non-decreasing function of the window, floored once at
 * the end, so budgets never jump backwards as windows grow and never collapse on small
 * windows (the reference's step-function reserves left gpt-4's 8K window a ceiling of 1).
 */
// 1/16 of the window for the reply: 8K at 128K, 16K at 256K, 64K from 1M on.
const outputReserveFraction = 1 / 16;
const outputReserveMinimum = 1_024;
const outputReserveMaximum = 64_000;
// Tokenizer drift between our count and the provider's.
const safetyMarginFraction = 1 / 40;
const safetyMarginMinimum = 256;
const safetyMarginMaximum = 40_000;
// Up to the knee the view may use 85% of the message room; beyond it long context costs
// more per turn and reads worse, so pressure grows at 30% of the extra room.
const pressureKneeTokens = 200_000;
const pressureFractionBelowKnee = 0.85;
const pressureFractionAboveKnee = 0.3;
// A fold lands at 30% of the ceiling, leaving 70% of sawtooth for cache-hot turns.
const bandFraction = 0.3;
const bandMaximumFraction = 0.8;

function clamp(value: number, minimum: number, maximum: number): number {
  return Math.min(maximum, Math.max(minimum, value));
}

function derivePressure(messageCeilingTokens: number): number {
  if (messageCeilingTokens <= pressureKneeTokens) return messageCeilingTokens * pressureFractionBelowKnee;
  return (
    pressureKneeTokens * pressureFractionBelowKnee +
    (messageCeilingTokens - pressureKneeTokens) * pressureFractionAboveKnee
  );
}

function profileFor(messageCeilingTokens: number): CompressionProfile {
  if (messageCeilingTokens <= 250_000) return 'survival';
  if (messageCeilingTokens <= 500_000) return 'balanced';
  if (messageCeilingTokens <= 1_000_000) return 'cache-economic';
  return 'wide-cache-economic';
}

export function deriveBudgetNumbers(input: BudgetNumbersInput): BudgetNumbers {
  const window = input.contextWindowTokens;
  const outputReserve = clamp(window * outputReserveFraction, outputReserveMinimum, outputReserveMaximum);
  const safetyMargin = clamp(window * safetyMarginFraction, safetyMarginMinimum, safetyMarginMaximum);
  let messageCeilingTokens = Math.floor(window - outputReserve - safetyMargin);
  // A documented input cap already excludes output; only the margin applies to it.
  if (input.inputLimitTokens !== null) {
    messageCeilingTokens = Math.min(messageCeilingTokens, Math.floor(input.inputLimitTokens - safetyMargin));
  }
  const derivedPressure = Math.floor(derivePressure(messageCeilingTokens));
  const pressureCeilingTokens = Math.min(input.pressureCeilingTokens ?? derivedPressure, messageCeilingTokens - 1);
  const defaultBand = Math.floor(pressureCeilingTokens * bandFraction);
  const bandTokens = Math.max(
    1,
    Math.min(input.targetBandTokens ?? defaultBand, Math.floor(pressureCeilingTokens * bandMaximumFraction)),
  );
  const compressionProfile = profileFor(messageCeilingTokens);
  return {
    outputReserveTokens: Math.ceil(outputReserve),
    safetyMarginTokens: Math.ceil(safetyMargin),
    messageCeilingTokens,
    pressureCeilingTokens,
    // Halfway up the sawtooth: a refold that cannot get below this is not worth its cache miss.
    prefixSaturationTokens: Math.floor((bandTokens + pressureCeilingTokens) / 2),
    bandTokens,
    tailEpochCapTokens: pressureCeilingTokens - bandTokens,
    compressionProfile,
    evictionPolicy: compressionProfile === 'survival' ? 'hard-epoch-only' : 'hard-epoch-on-prefix-saturation',
  };
}
