import { FoldOptionsError } from '../errors.ts';
import { validate, type Check } from './check.ts';
import type { ValidationError } from './validation-error.ts';

/** A refused option as the error a host catches for options: a FoldOptionsError naming the field. */
export const toOptionsError = (error: ValidationError): FoldOptionsError =>
  new FoldOptionsError(error.field, error.message, { cause: error });

/** Reads an option (or an options object) named `path` with `check`; throws FoldOptionsError naming the field. */
export function checkOption<T>(check: Check<T>, value: unknown, path: string): T {
  return validate(() => check(value, path), toOptionsError);
}
