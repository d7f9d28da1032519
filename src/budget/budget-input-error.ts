import { WarpfoldError } from '../errors.ts';

export type BudgetInputErrorCode = 'missing-field' | 'invalid-field' | 'unknown-model';

/** Thrown by resolveContextBudget; `field` names the input to supply or fix. */
export class BudgetInputError extends WarpfoldError {
  static override readonly errorName: string = 'BudgetInputError';
  declare readonly code: BudgetInputErrorCode;
  declare readonly field: string;

  constructor(code: BudgetInputErrorCode, field: string, message: string) {
    super(code, message, { field });
  }
}
