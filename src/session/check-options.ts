import { checkFoldConfigOverrides, FOLD_CONFIG_FIELDS } from '../fold/check-fold-config.ts';
import type { FreezeConfig } from '../freeze/evaluate-freeze.ts';
import { checkFieldValues, checkOptionFields, isAnything, isBoolean, isFunction, isNonNegative, isShare, isString, type FieldCheck } from '../messages/check-option-fields.ts';
import { FoldOptionsError } from '../messages/fold-input-error.ts';
import type { TokenCounter } from '../messages/transcript.ts';
import { resolveRecallConfig, type RecallConfig } from '../recall/recall-config.ts';
import { restoreTaskRail } from '../task-rail/restore-task-rail.ts';
import { TASK_RAIL_FORMAT_VERSION } from '../task-rail/serialized-task-rail.ts';
import { describeValue as describe } from '../text/describe-value.ts';
import type { FoldPrepareOptions } from './fold-outcome.ts';
import type { FoldSessionOptions } from './fold-session-options.ts';
import { isRecord as isObject } from '../text/is-record.ts';

/** Every freeze setting and what it must be: a setting added to the type without a check here does not compile. */
const FREEZE_SETTINGS: { readonly [Key in keyof FreezeConfig]-?: FieldCheck } = {
  enabled: isBoolean,
  ttlMs: isNonNegative,
  maxTailChars: isNonNegative,
  coldRefoldFraction: isShare,
};

/** The fields a recall config may hold; their values are checked where the recall config is resolved. */
const RECALL_SETTINGS: { readonly [Key in keyof RecallConfig]-?: FieldCheck } = {
  maxCards: isAnything,
  cardTokens: isAnything,
  totalTokens: isAnything,
  residencyCalls: isAnything,
  residencyMs: isAnything,
  contextLines: isAnything,
  wholeResultTokens: isAnything,
  minCardTokens: isAnything,
  countTokens: isFunction,
};

/** A recall config's fields, then its values as `resolveRecallConfig` checks them, as option errors. */
function checkRecallSettings(recall: Record<string, unknown>, path: string): void {
  checkOptionFields(recall, path, RECALL_SETTINGS);
  resolveRecallConfig(recall);
}

/** A field `options` does not have: named, and pointed under `foldConfig` when it is a fold setting. */
function rejectUnknown(options: Record<string, unknown>, known: Readonly<Record<string, FieldCheck>>, what: string): void {
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(known, key)) continue;
    const hint = what === 'FoldSession' && FOLD_CONFIG_FIELDS.includes(key) ? `; fold settings go under foldConfig, as { foldConfig: { ${key}: … } }` : `; the options are ${Object.keys(known).join(', ')}`;
    throw new FoldOptionsError(key, `${what} has no option ${JSON.stringify(key)}${hint}`);
  }
}

/** The options object itself: absent, or a plain object. */
function checkOptionsObject(options: unknown, what: string): Record<string, unknown> {
  if (options === undefined) return {};
  if (!isObject(options)) throw new FoldOptionsError('(options)', `${what} options must be an object or left out, got ${describe(options)}`);
  return options;
}

/** `true`, `false`, or an object of settings that `check` checks. */
const booleanOrSettings =
  (check: (settings: Record<string, unknown>, path: string) => void): FieldCheck =>
  (value, path) => {
    if (typeof value === 'boolean') return null;
    if (!isObject(value)) return 'a boolean or an object';
    check(value, path);
    return null;
  };

/** Every option of `new FoldSession(…)` and what it must be: an option added to the type without a check here does not compile. */
const SESSION_OPTIONS: { readonly [Key in keyof FoldSessionOptions]-?: FieldCheck } = {
  // checked by the constructor, which knows the smallest ceiling
  pressureCeiling: isAnything,
  budget: (value) => (isObject(value) ? null : 'an object'),
  countTokens: isFunction,
  now: isFunction,
  foldConfig: (value, path) => {
    checkFoldConfigOverrides(value, path);
    return null;
  },
  freeze: booleanOrSettings((settings, path) => checkOptionFields(settings, path, FREEZE_SETTINGS)),
  recall: booleanOrSettings(checkRecallSettings),
  restoredState: (value) => (typeof value === 'string' || isObject(value) ? null : 'a string or an object'),
  keepReceipts: (value) => (typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value) && value >= 0) ? null : 'a boolean or a whole number of receipts ≥ 0'),
};

/** Checks what `new FoldSession(options)` was given, before anything is built from it. */
export function checkSessionOptions(options: unknown): Record<string, unknown> {
  const checked = checkOptionsObject(options, 'FoldSession');
  rejectUnknown(checked, SESSION_OPTIONS, 'FoldSession');
  checkFieldValues(checked, SESSION_OPTIONS);
  const budget = checked.budget as Record<string, unknown> | undefined;
  if (budget && checked.pressureCeiling === undefined && typeof budget.pressureCeilingTokens !== 'number') throw new FoldOptionsError('budget', `budget.pressureCeilingTokens must be a number, got ${describe(budget.pressureCeilingTokens)}`);
  return checked;
}

/** Every option of `prepare(history, options)` and what it must be, as above. */
const PREPARE_OPTIONS: { readonly [Key in keyof FoldPrepareOptions]-?: FieldCheck } = {
  measuredInputTokens: (value) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? null : 'a non-negative number'),
  hardEpoch: isBoolean,
  hardEpochSeed: isString,
  taskRail: (value) => {
    if (!isObject(value)) return 'a task rail object';
    const read = restoreTaskRail({ ...value, version: TASK_RAIL_FORMAT_VERSION });
    if (!read.ok) throw new FoldOptionsError('taskRail', `taskRail${read.error.field && read.error.field !== '(root)' ? `.${read.error.field}` : ''} is not valid: ${read.error.message}`);
    return null;
  },
};

/** Checks what `prepare(history, options)` was given; nothing has changed when this throws. */
export function checkPrepareOptions(options: unknown): FoldPrepareOptions {
  const checked = checkOptionsObject(options, 'prepare');
  rejectUnknown(checked, PREPARE_OPTIONS, 'prepare');
  checkFieldValues(checked, PREPARE_OPTIONS);
  return checked as FoldPrepareOptions;
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
      throw new FoldOptionsError('countTokens', `countTokens must return a non-negative finite number of tokens; it returned ${describe(tokens)} for a text of ${text.length} characters`);
    return Math.ceil(tokens);
  };
}
