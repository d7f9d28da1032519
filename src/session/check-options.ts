import { foldConfigOverrides, FOLD_CONFIG_FIELDS } from '../fold/check-fold-config.ts';
import type { FreezeConfig } from '../freeze/evaluate-freeze.ts';
import { FoldOptionsError } from '../errors.ts';
import type { TokenCounter } from '../messages/transcript.ts';
import { RECALL_CONFIG_FIELDS } from '../recall/recall-config.ts';
import { taskRail } from '../task-rail/restore-task-rail.ts';
import { describeValue as describe } from '../text/describe-value.ts';
import { isRecord as isObject } from '../text/is-record.ts';
import {
  anything,
  boolean,
  callable,
  is,
  number,
  optionalFields,
  record,
  reject,
  string,
  type Check,
  type Fields,
} from '../validation/check.ts';
import { checkOption } from '../validation/check-option.ts';
import type { FoldPrepareOptions } from './fold-outcome.ts';
import type { FoldSessionOptions } from './fold-session-options.ts';

/** Every freeze setting and what it must be: a setting added to the type without a check here does not compile. */
const FREEZE_SETTINGS: Fields<FreezeConfig> = {
  enabled: boolean,
  ttlMs: number(0),
  maxTailChars: number(0),
  coldRefoldFraction: number(0, 1),
};

/** `true`, `false`, or an object of settings that `settings` reads. */
const booleanOrSettings =
  (settings: Check<unknown>): Check<unknown> =>
  (value, path) =>
    typeof value === 'boolean'
      ? value
      : isObject(value)
        ? settings(value, path)
        : reject(path, 'a boolean or an object', value);

/** Every option of `new FoldSession(…)` and what it must be: an option added to the type without a check here does not compile. */
const SESSION_OPTIONS: Fields<FoldSessionOptions> = {
  // checked by the constructor, which knows the smallest ceiling
  pressureCeiling: anything as Check<FoldSessionOptions['pressureCeiling']>,
  budget: is(isObject, 'an object'),
  countTokens: callable as Check<TokenCounter>,
  now: callable as Check<() => number>,
  foldConfig: foldConfigOverrides,
  freeze: booleanOrSettings(record(optionalFields(FREEZE_SETTINGS), true)) as Check<FoldSessionOptions['freeze']>,
  recall: booleanOrSettings(record(optionalFields(RECALL_CONFIG_FIELDS), true)) as Check<FoldSessionOptions['recall']>,
  restoredState: is((value) => typeof value === 'string' || isObject(value), 'a string or an object'),
  keepReceipts: is(
    (value) => typeof value === 'boolean' || (Number.isInteger(value) && (value as number) >= 0),
    'a boolean or a whole number of receipts ≥ 0',
  ),
};

/** Every option of `prepare(history, options)` and what it must be, as above. */
const PREPARE_OPTIONS: Fields<FoldPrepareOptions> = {
  measuredInputTokens: is((value) => Number.isFinite(value) && (value as number) >= 0, 'a non-negative number'),
  hardEpoch: boolean,
  hardEpochSeed: string,
  taskRail,
};

/** The options object itself: absent, or a plain object. */
function checkOptionsObject(options: unknown, what: string): Record<string, unknown> {
  if (options === undefined) return {};
  if (!isObject(options))
    throw new FoldOptionsError('(options)', `${what} options must be an object or left out, got ${describe(options)}`);
  return options;
}

/**
 * The options of `what`, each field as `known` says: a field it does not have is named (and
 * pointed under `foldConfig` when it is a fold setting), then every value is checked.
 */
function checkOptions(options: unknown, known: Fields<object>, what: string): Record<string, unknown> {
  const checked = checkOptionsObject(options, what);
  for (const key of Object.keys(checked)) {
    if (Object.hasOwn(known, key)) continue;
    const hint =
      what === 'FoldSession' && FOLD_CONFIG_FIELDS.includes(key)
        ? `; fold settings go under foldConfig, as { foldConfig: { ${key}: … } }`
        : `; the options are ${Object.keys(known).join(', ')}`;
    throw new FoldOptionsError(key, `${what} has no option ${JSON.stringify(key)}${hint}`);
  }
  checkOption(record(optionalFields(known)), checked, '');
  return checked;
}

/** Checks what `new FoldSession(options)` was given, before anything is built from it. */
export function checkSessionOptions(options: unknown): Record<string, unknown> {
  const checked = checkOptions(options, SESSION_OPTIONS, 'FoldSession');
  const budget = checked.budget as Record<string, unknown> | undefined;
  if (budget && checked.pressureCeiling === undefined && typeof budget.pressureCeilingTokens !== 'number')
    throw new FoldOptionsError(
      'budget',
      `budget.pressureCeilingTokens must be a number, got ${describe(budget.pressureCeilingTokens)}`,
    );
  return checked;
}

/** Checks what `prepare(history, options)` was given; nothing has changed when this throws. */
export function checkPrepareOptions(options: unknown): FoldPrepareOptions {
  return checkOptions(options, PREPARE_OPTIONS, 'prepare') as FoldPrepareOptions;
}

/**
 * A host counter whose every answer is checked: the engine does arithmetic on counts and stores
 * them, so NaN, a negative or a string would poison a view or a snapshot. Fractional counts
 * round up, which keeps the view under its ceiling and the stored counts whole.
 */
export function checkedCounter(countTokens: TokenCounter): TokenCounter {
  return (text: string) => {
    const tokens: unknown = countTokens(text);
    if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0)
      throw new FoldOptionsError(
        'countTokens',
        `countTokens must return a non-negative finite number of tokens; it returned ${describe(tokens)} for a text of ${text.length} characters`,
      );
    return Math.ceil(tokens);
  };
}
