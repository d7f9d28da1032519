// Stand-in for the report branch's ceiling rule (same contract); replaced when that branch merges.
import { resolveContextBudget } from './resolve-context-budget.ts';
import { BudgetInputError } from './budget-input-error.ts';

export type CeilingSource = 'header' | 'flag' | 'model' | 'default';

export interface CeilingChoice {
  readonly tokens: number;
  readonly source: CeilingSource;
  readonly model?: string;
  readonly explanation: string;
}

/** The ceiling when nothing names one: the largest model budget the table caps at. */
export const DEFAULT_CEILING_TOKENS = 200_000;

function parseCount(value: string | number): number | undefined {
  const number = typeof value === 'number' ? value : Number(String(value).replace(/[_,]/g, '').trim());
  return Number.isFinite(number) && number > 0 ? Math.floor(number) : undefined;
}

/** header > configured > model budget (≤ 200,000) > 200,000. */
export function resolveCeiling(input: {
  header?: string | number | null;
  configured?: number;
  model?: string;
  engine?: string;
}): CeilingChoice {
  if (input.header !== undefined && input.header !== null && input.header !== '') {
    const tokens = parseCount(input.header);
    if (tokens === undefined)
      throw new BudgetInputError(
        'invalid-field',
        'header',
        `x-warpfold-ceiling must be a positive number, got ${JSON.stringify(input.header)}`,
      );
    return { tokens, source: 'header', explanation: `x-warpfold-ceiling: ${tokens}` };
  }
  if (input.configured !== undefined)
    return { tokens: input.configured, source: 'flag', explanation: `configured ceiling ${input.configured}` };
  if (input.model !== undefined && input.model !== '') {
    try {
      const budget = resolveContextBudget({ engine: input.engine ?? 'claude', model: input.model });
      const tokens = Math.min(DEFAULT_CEILING_TOKENS, budget.pressureCeilingTokens);
      return { tokens, source: 'model', model: input.model, explanation: `${input.model}'s budget` };
    } catch (error) {
      if (!(error instanceof BudgetInputError)) throw error;
    }
  }
  return { tokens: DEFAULT_CEILING_TOKENS, source: 'default', explanation: 'default ceiling' };
}
