import { WarpfoldError } from '../errors.ts';

/**
 * A value that is not what its check expects, naming its path. The entry points turn it into
 * their own error (`FoldOptionsError`, `FoldStateError`, a task rail's `invalid-serialized-rail`,
 * a `CorruptRecordError`), so a host sees the error of what it passed.
 */
export class ValidationError extends WarpfoldError {
  static override readonly errorName: string = 'ValidationError';
  declare readonly code: 'invalid-field';
  declare readonly field: string;
  /** What is wrong, without the path: `must be an integer ≥ 0, got -1`. */
  readonly problem: string;

  constructor(field: string, problem: string, message = `${field} ${problem}`) {
    super('invalid-field', message, { field });
    this.problem = problem;
  }
}
