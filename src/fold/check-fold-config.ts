import { checkOptionFields, isBoolean, isFiniteNonNegative, isShare, orFalse, type FieldCheck } from '../messages/check-option-fields.ts';
import type { FoldConfig, FoldConfigOverrides } from './fold-config.ts';
import type { LineValueWeights } from './line-value.ts';

/** A trigger share: above 0 (a tail of 0 tokens would fold on every call) and at most the ceiling. */
const isTriggerShare: FieldCheck = (value) => (typeof value === 'number' && value > 0 && value <= 1 ? null : 'a number above 0 and at most 1');
/** Newest lines weigh 1 + recency / 2 and oldest 1 − recency / 2, which must not go below 0. */
const isRecency: FieldCheck = (value) => (typeof value === 'number' && value >= 0 && value <= 2 ? null : 'a number from 0 to 2');
const isLengthWeights: FieldCheck = (value) =>
  Array.isArray(value) && value.length === 4 && value.every((weight) => isFiniteNonNegative(weight, '') === null) ? null : 'four finite numbers ≥ 0 (source lines under 80, 160, 240 characters, and longer)';

/** Every line weight and what it must be: a weight added to the type without a check here does not compile. */
const LINE_WEIGHT_CHECKS: { readonly [Key in keyof LineValueWeights]-?: FieldCheck } = {
  assistant: isFiniteNonNegative,
  assistantRepeated: isFiniteNonNegative,
  assistantLength: isLengthWeights,
  argument: isFiniteNonNegative,
  argumentRepeated: isFiniteNonNegative,
  user: isFiniteNonNegative,
  reasoning: isFiniteNonNegative,
  output: isFiniteNonNegative,
  outputEchoed: isFiniteNonNegative,
  diff: isFiniteNonNegative,
  error: isFiniteNonNegative,
  identifier: isFiniteNonNegative,
  recency: isRecency,
};
const LINE_WEIGHTS = Object.keys(LINE_WEIGHT_CHECKS);

/** The settings FoldConfig declares optional, which configs saved before them leave out. */
const OPTIONAL_SETTINGS: ReadonlyArray<keyof FoldConfig> = ['fullMergeShare', 'closetWindowFraction', 'alwaysOn', 'liveOutputFraction', 'liveOutputFloorFraction'];

/** Every fold setting and what it must be: a setting added to the type without a check here does not compile. */
function foldConfigChecks(complete: boolean): { readonly [Key in keyof FoldConfig]-?: FieldCheck } {
  return {
    tailFraction: isShare,
    bandRatio: isShare,
    bandFraction: isShare,
    bandsFraction: isShare,
    mergeFraction: isShare,
    fullMergeShare: isShare,
    callShare: isShare,
    closetFraction: isShare,
    closetWindowFraction: isShare,
    headFraction: isShare,
    safetyFraction: isShare,
    tailTriggerFraction: orFalse(isTriggerShare),
    alwaysOn: isBoolean,
    seedFraction: isShare,
    liveOutputFraction: isShare,
    liveOutputFloorFraction: isShare,
    lineWeights: (value, path) => {
      checkOptionFields(value, path, LINE_WEIGHT_CHECKS, complete ? LINE_WEIGHTS : []);
      return null;
    },
  };
}

/** Every field a fold config may hold: an unknown top-level option named like one belongs under `foldConfig`. */
export const FOLD_CONFIG_FIELDS: readonly string[] = Object.keys(foldConfigChecks(false));

/** Checks a host's fold overrides, named `option` in errors; throws FoldOptionsError naming the field. */
export function checkFoldConfigOverrides(value: unknown, option: string): FoldConfigOverrides {
  return checkOptionFields(value, option, foldConfigChecks(false)) as FoldConfigOverrides;
}

/** Checks a whole fold config: every setting the type requires, and every line weight, must be there. */
export function checkFoldConfig(value: unknown, option: string): FoldConfig {
  const required = FOLD_CONFIG_FIELDS.filter((field) => !(OPTIONAL_SETTINGS as readonly string[]).includes(field));
  return checkOptionFields(value, option, foldConfigChecks(true), required) as unknown as FoldConfig;
}
