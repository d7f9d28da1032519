import { BudgetInputError, resolveContextBudget } from '../src/budget/index.ts';
import type { FoldSessionOptions } from '../src/index.ts';
import { ApiError } from './api-error.ts';

/** How a session folds; stored with it and replaced by the `options` of a later call. */
export interface SessionOptions {
  /** Token ceiling of every view; `false` never folds under pressure. */
  readonly pressureCeiling?: number | false;
  /** Derive the ceiling from a model's window (see `resolveContextBudget`); `pressureCeiling` wins. */
  readonly budget?: {
    readonly engine: string;
    readonly model: string;
    readonly contextWindowTokens?: number;
    readonly pressureCeilingTokens?: number;
    readonly targetBandTokens?: number;
  };
  /** Provider cache lifetime in ms (default 300,000). */
  readonly freezeTtlMs?: number;
  /** `false` rebuilds every view from scratch (never cache-hot). */
  readonly freeze?: boolean;
  /** Page folded content back in (default off, as in the library). */
  readonly recall?: boolean;
}

/** The library's session options for these, with the given clock. Throws ApiError naming the field. */
export function toFoldSessionOptions(
  options: SessionOptions,
  now: () => number,
  field = 'options',
): FoldSessionOptions {
  let budget: { pressureCeilingTokens: number } | undefined;
  if (options.budget) {
    try {
      budget = resolveContextBudget({ ...options.budget });
    } catch (error) {
      if (error instanceof BudgetInputError)
        throw new ApiError('invalid-request', error.message, { field: `${field}.budget.${error.field}` });
      throw error;
    }
  }
  const freeze =
    options.freeze === false ? false : options.freezeTtlMs !== undefined ? { ttlMs: options.freezeTtlMs } : true;
  return {
    ...(options.pressureCeiling !== undefined ? { pressureCeiling: options.pressureCeiling } : {}),
    ...(budget ? { budget } : {}),
    freeze,
    ...(options.recall !== undefined ? { recall: options.recall } : {}),
    now,
  };
}

/** The model a session or fold without a ceiling of its own is folded for. */
export interface DefaultBudget {
  readonly engine: string;
  readonly model: string;
}

/**
 * Options as the session will keep them: without `pressureCeiling` or `budget`, the ceiling comes
 * from `budget`, written into the options so the API shows what the session folds at.
 */
export function withDefaultCeiling(options: SessionOptions | undefined, budget: DefaultBudget): SessionOptions {
  if (options?.pressureCeiling !== undefined || options?.budget !== undefined) return options ?? {};
  return { ...options, budget: { engine: budget.engine, model: budget.model } };
}
