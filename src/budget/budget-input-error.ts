export type BudgetInputErrorCode = 'missing-field' | 'invalid-field' | 'unknown-model';

/** Thrown by resolveContextBudget; `field` names the input to supply or fix. */
export class BudgetInputError extends Error {
  override readonly name = 'BudgetInputError';
  readonly code: BudgetInputErrorCode;
  readonly field: string;

  constructor(code: BudgetInputErrorCode, field: string, message: string) {
    super(message);
    this.code = code;
    this.field = field;
  }
}
