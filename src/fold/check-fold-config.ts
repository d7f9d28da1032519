import { boolean, finite, is, number, optionalFields, record, type Check, type Fields } from '../validation/check.ts';
import { checkOption } from '../validation/check-option.ts';
import type { FoldConfig, FoldConfigOverrides } from './fold-config.ts';
import type { LineValueWeights } from './line-value.ts';

const share = number(0, 1);
const weight = finite(0);
/** A trigger share: above 0 (a tail of 0 tokens would fold on every call) and at most the ceiling; or false. */
const triggerShare = is<number | false>(
  (value) => value === false || (typeof value === 'number' && value > 0 && value <= 1),
  'false or a number above 0 and at most 1',
);
/** Newest lines weigh 1 + recency / 2 and oldest 1 − recency / 2, which must not go below 0. */
const recency = number(0, 2);
const lengthWeights = is<LineValueWeights['assistantLength']>(
  (value) => Array.isArray(value) && value.length === 4 && value.every((entry) => Number.isFinite(entry) && entry >= 0),
  'four finite numbers ≥ 0 (source lines under 80, 160, 240 characters, and longer)',
);

/** Every line weight and what it must be: a weight added to the type without a check here does not compile. */
const LINE_WEIGHT_CHECKS: Fields<LineValueWeights> = {
  assistant: weight,
  assistantRepeated: weight,
  assistantLength: lengthWeights,
  argument: weight,
  argumentRepeated: weight,
  user: weight,
  reasoning: weight,
  output: weight,
  outputEchoed: weight,
  diff: weight,
  error: weight,
  identifier: weight,
  recency,
};

/** The settings FoldConfig declares optional, which configs saved before them leave out. */
const OPTIONAL_SETTINGS: ReadonlyArray<keyof FoldConfig> = [
  'fullMergeShare',
  'closetWindowFraction',
  'alwaysOn',
  'liveOutputFraction',
  'liveOutputFloorFraction',
];

/** Every fold setting and what it must be: a setting added to the type without a check here does not compile. */
function foldConfigChecks(complete: boolean): Fields<FoldConfig> {
  const fields: Fields<FoldConfig> = {
    tailFraction: share,
    bandRatio: share,
    bandFraction: share,
    bandsFraction: share,
    mergeFraction: share,
    fullMergeShare: share,
    callShare: share,
    closetFraction: share,
    closetWindowFraction: share,
    headFraction: share,
    safetyFraction: share,
    tailTriggerFraction: triggerShare,
    alwaysOn: boolean,
    seedFraction: share,
    liveOutputFraction: share,
    liveOutputFloorFraction: share,
    lineWeights: record(optionalFields(LINE_WEIGHT_CHECKS, complete ? Object.keys(LINE_WEIGHT_CHECKS) : []), true),
  };
  return optionalFields(
    fields,
    complete ? Object.keys(fields).filter((key) => !(OPTIONAL_SETTINGS as readonly string[]).includes(key)) : [],
  );
}

/** Every field a fold config may hold: an unknown top-level option named like one belongs under `foldConfig`. */
export const FOLD_CONFIG_FIELDS: readonly string[] = Object.keys(foldConfigChecks(false));

/** A host's fold overrides: only settings a fold config has, each in its range. */
export const foldConfigOverrides: Check<FoldConfigOverrides> = record(foldConfigChecks(false), true);

/** Checks a whole fold config: every setting the type requires, and every line weight, must be there. */
export function checkFoldConfig(value: unknown, option: string): FoldConfig {
  checkOption(record(foldConfigChecks(true), true), value, option);
  return value as FoldConfig;
}
