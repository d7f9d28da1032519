import { describeValue } from '../text/describe-value.ts';
import { isRecord } from '../text/is-record.ts';
import { ValidationError } from './validation-error.ts';

/** Reads `value`, found at `path`, as a T; throws a `ValidationError` naming the path when it is not one. */
export type Check<T> = (value: unknown, path: string) => T;

/** A check for every field of T: a field added to T without a check does not compile. */
export type Fields<T> = { readonly [Key in keyof T]-?: Check<T[Key]> };

/** Refuses `value` at `path`, saying what it should have been ("a number from 0 to 1"). */
export function reject(path: string, expected: string, value: unknown): never {
  throw new ValidationError(
    path,
    value === undefined ? 'is missing' : `must be ${expected}, got ${describeValue(value)}`,
  );
}

/** Refuses a value for a reason of its own: two fields that disagree, a duplicate. */
export function invalid(path: string, problem: string): never {
  throw new ValidationError(path, problem);
}

/** The path of a field: `key` at the root, else `path.key`. */
const fieldPath = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** The value when `test` holds, else refused as not `expected`. */
export const is =
  <T>(test: (value: unknown) => boolean, expected: string): Check<T> =>
  (value, path) =>
    test(value) ? (value as T) : reject(path, expected, value);

export const anything: Check<unknown> = (value) => value;
export const string = is<string>((value) => typeof value === 'string', 'a string');
export const nonEmptyString = is<string>((value) => typeof value === 'string' && value !== '', 'a non-empty string');
export const boolean = is<boolean>((value) => typeof value === 'boolean', 'a boolean');
export const callable = is<(...args: never[]) => unknown>((value) => typeof value === 'function', 'a function');

/** A safe integer of at least `minimum`. */
export const integer = (minimum = 0): Check<number> =>
  is((value) => Number.isSafeInteger(value) && (value as number) >= minimum, `an integer ≥ ${minimum}`);

/** A number in [minimum, maximum]; NaN never is, an infinity may be. */
export const number = (minimum: number, maximum = Infinity): Check<number> =>
  is(
    (value) => typeof value === 'number' && value >= minimum && value <= maximum,
    maximum === Infinity ? `a number ≥ ${minimum}` : `a number from ${minimum} to ${maximum}`,
  );

/** A finite number of at least `minimum`. */
export const finite = (minimum = -Infinity): Check<number> =>
  is(
    (value) => Number.isFinite(value) && (value as number) >= minimum,
    minimum === -Infinity ? 'a finite number' : `a finite number ≥ ${minimum}`,
  );

export const oneOf = <T>(values: readonly T[]): Check<T> =>
  is((value) => values.includes(value as T), `one of ${values.join(', ')}`);

/** `undefined` (the field left out), or what `check` reads. */
export const optional =
  <T>(check: Check<T>): Check<T | undefined> =>
  (value, path) =>
    value === undefined ? undefined : check(value, path);

export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (value, path) =>
    value === null ? null : check(value, path);

/** `fields` with each check made optional, but those of the keys in `required`. */
export function optionalFields<T>(fields: Fields<T>, required: readonly string[] = []): Fields<T> {
  const checks: Record<string, Check<unknown>> = {};
  for (const [key, check] of Object.entries<Check<unknown>>(fields))
    checks[key] = required.includes(key) ? check : optional(check);
  return checks as Fields<T>;
}

export const arrayOf =
  <T>(item: Check<T>): Check<T[]> =>
  (value, path) =>
    Array.isArray(value)
      ? value.map((entry, index) => item(entry, `${path}[${index}]`))
      : reject(path, 'an array', value);

/**
 * An object with the fields of `fields`, each read by its check, as a fresh object in the order
 * of `fields` (a field read as `undefined` is left out). A field it does not know is dropped, or
 * with `exact` refused by name, so a misspelt option never passes unseen.
 */
export const record =
  <T>(fields: Fields<T>, exact = false): Check<T> =>
  (value, path) => {
    if (!isRecord(value)) reject(path, 'an object', value);
    const known = Object.keys(fields);
    if (exact)
      for (const key of Object.keys(value))
        if (!known.includes(key))
          throw new ValidationError(
            fieldPath(path, key),
            'is not a known field',
            `${path} has no field ${JSON.stringify(key)}; its fields are ${known.join(', ')}`,
          );
    const read: Record<string, unknown> = {};
    for (const key of known) {
      const field = (fields as Record<string, Check<unknown>>)[key](value[key], fieldPath(path, key));
      if (field !== undefined) read[key] = field;
    }
    return read as T;
  };

/** Runs `read`; a `ValidationError` from it becomes the caller's own error, made by `toError`. */
export function validate<T>(read: () => T, toError: (error: ValidationError) => Error): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof ValidationError ? toError(error) : error;
  }
}
