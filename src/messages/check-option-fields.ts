import { describeValue } from '../text/describe-value.ts';
import { isRecord } from '../text/is-record.ts';
import { FoldOptionsError } from './fold-input-error.ts';

/**
 * What one field of an options object must be: null when `value` is that, else what it should
 * have been ("a number from 0 to 1"). `path` names the field, for checks that go one level down.
 */
export type FieldCheck = (value: unknown, path: string) => string | null;

export const isShare: FieldCheck = (value) => (typeof value === 'number' && value >= 0 && value <= 1 ? null : 'a number from 0 to 1');
export const isNonNegative: FieldCheck = (value) => (typeof value === 'number' && !Number.isNaN(value) && value >= 0 ? null : 'a number ≥ 0');
export const isFiniteNonNegative: FieldCheck = (value) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? null : 'a finite number ≥ 0');
export const isBoolean: FieldCheck = (value) => (typeof value === 'boolean' ? null : 'a boolean');
export const isFunction: FieldCheck = (value) => (typeof value === 'function' ? null : 'a function');
export const isString: FieldCheck = (value) => (typeof value === 'string' ? null : 'a string');
/** Any value: a field whose own check is done where it is used. */
export const isAnything: FieldCheck = () => null;

/** A field that may be `false` or whatever `check` accepts. */
export function orFalse(check: FieldCheck): FieldCheck {
  return (value, path) => {
    if (value === false) return null;
    const expected = check(value, path);
    return expected === null ? null : `false or ${expected}`;
  };
}

/**
 * Runs each check of `fields` on its field of `value`, named `prefix.field` in errors (just
 * `field` with no prefix). A field left out or `undefined` is absent, which is allowed unless it
 * is `required`.
 */
export function checkFieldValues(value: Readonly<Record<string, unknown>>, fields: Readonly<Record<string, FieldCheck>>, prefix = '', required: readonly string[] = []): void {
  for (const [key, check] of Object.entries(fields)) {
    const field = value[key];
    const path = prefix ? `${prefix}.${key}` : key;
    if (field === undefined) {
      if (required.includes(key)) throw new FoldOptionsError(path, `${path} is missing`);
      continue;
    }
    const expected = check(field, path);
    if (expected !== null) throw new FoldOptionsError(path, `${path} must be ${expected}, got ${describeValue(field)}`);
  }
}

/**
 * Checks the options object `value`, named `option` in errors: an object holding only the
 * fields of `fields`, each as its check says (see checkFieldValues). Throws FoldOptionsError
 * naming the field, so a misspelt or misplaced option never passes unseen.
 */
export function checkOptionFields(value: unknown, option: string, fields: Readonly<Record<string, FieldCheck>>, required: readonly string[] = []): Record<string, unknown> {
  if (!isRecord(value)) throw new FoldOptionsError(option, `${option} must be an object, got ${describeValue(value)}`);
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(fields, key)) throw new FoldOptionsError(`${option}.${key}`, `${option} has no field ${JSON.stringify(key)}; its fields are ${Object.keys(fields).join(', ')}`);
  }
  checkFieldValues(value, fields, option, required);
  return value;
}
