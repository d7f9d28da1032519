import { boolean, is, number, optionalFields, record, type Check, type Fields } from '../validation/check.ts';
import { checkOption } from '../validation/check-option.ts';
import type { FoldConfig, FoldConfigOverrides } from './fold-config.ts';

const share = number(0, 1);
/** A share above 0: a share of 0 would leave no room for what it sizes. */
const positiveShare = is<number>(
  (value) => typeof value === 'number' && value > 0 && value <= 1,
  'a number above 0 and at most 1',
);
const positive = is<number>(
  (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
  'a finite number above 0',
);

/** The settings FoldConfig declares optional. */
const OPTIONAL_SETTINGS: ReadonlyArray<keyof FoldConfig> = ['alwaysOn'];

/** Every fold setting and what it must be: a setting added to the type without a check here does not compile. */
const FOLD_CONFIG_CHECKS: Fields<FoldConfig> = {
  safetyFraction: share,
  headFraction: share,
  workingSetShare: positiveShare,
  liveStepShare: positiveShare,
  outputsPerWorkingSet: positive,
  bandRatio: positiveShare,
  bandsFraction: positiveShare,
  epochsPerMerge: positive,
  closetFraction: share,
  alwaysOn: boolean,
};

/** Every field a fold config may hold: an unknown top-level option named like one belongs under `foldConfig`. */
export const FOLD_CONFIG_FIELDS: readonly string[] = Object.keys(FOLD_CONFIG_CHECKS);

/** A host's fold overrides: only settings a fold config has, each in its range. */
export const foldConfigOverrides: Check<FoldConfigOverrides> = record(optionalFields(FOLD_CONFIG_CHECKS), true);

/** Checks a whole fold config: every setting the type requires must be there. */
export function checkFoldConfig(value: unknown, option: string): FoldConfig {
  const required = FOLD_CONFIG_FIELDS.filter((field) => !(OPTIONAL_SETTINGS as readonly string[]).includes(field));
  checkOption(record(optionalFields(FOLD_CONFIG_CHECKS, required), true), value, option);
  return value as FoldConfig;
}
