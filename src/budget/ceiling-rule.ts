import { BudgetInputError } from './budget-input-error.ts';
import { MINIMUM_PRESSURE_CEILING_TOKENS, resolveContextBudget } from './resolve-context-budget.ts';
import type { ContextBudget } from './types.ts';

/** Where a ceiling came from: the request header, a flag or setting, the model's budget, or the default. */
export type CeilingSource = 'header' | 'flag' | 'model' | 'default';

export interface CeilingChoice {
  readonly tokens: number;
  readonly source: CeilingSource;
  readonly model?: string;
  /** Human text for a report row or a log line, e.g. "--ceiling" or "claude-opus-4-5: 200,000-token window less the output reserve". */
  readonly explanation: string;
}

export interface CeilingRuleInput {
  /** The x-warpfold-ceiling value, if the request sent one. */
  readonly header?: string | number | null;
  /** --ceiling / GATEWAY_CEILING_TOKENS. */
  readonly configured?: number;
  /** The request's or the transcript's model id. */
  readonly model?: string;
  /** The transport, as resolveContextBudget names engines. */
  readonly engine?: string;
}

// The largest ceiling the engine is measured at, and the window Claude Code assumes behind a custom base URL.
export const DEFAULT_CEILING_TOKENS = 200_000;

const HEADER_FIELD = 'x-warpfold-ceiling';
// The engine name used for a model when the caller names none: no engine caps its window.
const UNNAMED_ENGINE = 'api';
const digitsOnly = /^\d+$/u;

function grouped(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/gu, ',');
}

function invalidCount(field: string, value: unknown): BudgetInputError {
  return new BudgetInputError(
    'invalid-field',
    field,
    `${field} must be an integer of at least ${grouped(MINIMUM_PRESSURE_CEILING_TOKENS)}, got ${JSON.stringify(value) ?? String(value)}`,
  );
}

function validCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= MINIMUM_PRESSURE_CEILING_TOKENS;
}

function headerTokens(header: string | number): number {
  const text = typeof header === 'number' ? String(header) : header.trim();
  const tokens = digitsOnly.test(text) ? Number(text) : Number.NaN;
  if (!validCount(tokens)) throw invalidCount(HEADER_FIELD, header);
  return tokens;
}

function modelBudget(model: string, engine: string | undefined): ContextBudget | null {
  if (model.trim() === '') return null;
  try {
    return resolveContextBudget({ engine: engine ?? UNNAMED_ENGINE, model });
  } catch (error) {
    if (error instanceof BudgetInputError) return null;
    throw error;
  }
}

function fromModel(model: string, budget: ContextBudget): CeilingChoice {
  const window = `${grouped(budget.contextWindowTokens)}-token window`;
  if (budget.pressureCeilingTokens > DEFAULT_CEILING_TOKENS) {
    return {
      tokens: DEFAULT_CEILING_TOKENS,
      source: 'model',
      model,
      explanation: `${model}: ${window}, capped at the ${grouped(DEFAULT_CEILING_TOKENS)} default`,
    };
  }
  return {
    tokens: budget.pressureCeilingTokens,
    source: 'model',
    model,
    explanation: `${model}: ${window} less the output reserve`,
  };
}

/**
 * The one ceiling rule for the gateway, report, inspect and fold: a valid header wins, then the
 * configured ceiling, then the model's pressure ceiling (capped at the default), then the default.
 * Throws BudgetInputError naming 'x-warpfold-ceiling' for a header that is not a count.
 */
export function resolveCeiling(input: CeilingRuleInput): CeilingChoice {
  const model = typeof input.model === 'string' && input.model.trim() !== '' ? input.model : undefined;
  const withModel = model === undefined ? {} : { model };
  if (input.header !== undefined && input.header !== null) {
    return { tokens: headerTokens(input.header), source: 'header', ...withModel, explanation: HEADER_FIELD };
  }
  if (input.configured !== undefined) {
    if (!validCount(input.configured)) throw invalidCount('ceiling', input.configured);
    return { tokens: input.configured, source: 'flag', ...withModel, explanation: '--ceiling' };
  }
  const budget = model === undefined ? null : modelBudget(model, input.engine);
  if (model !== undefined && budget !== null) return fromModel(model, budget);
  return {
    tokens: DEFAULT_CEILING_TOKENS,
    source: 'default',
    ...withModel,
    explanation:
      model === undefined
        ? `no model known: the ${grouped(DEFAULT_CEILING_TOKENS)} default`
        : `${model}: window unknown, the ${grouped(DEFAULT_CEILING_TOKENS)} default`,
  };
}
