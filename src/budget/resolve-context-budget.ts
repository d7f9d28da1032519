import { BudgetInputError } from './budget-input-error.ts';
import { lookupModelWindow } from './context-window-for-model.ts';
import { deriveBudgetNumbers } from './derive-budget.ts';
import type { ContextBudget, ContextBudgetInput, ResolvedWindow } from './types.ts';

import { MINIMUM_CONTEXT_WINDOW_TOKENS, MINIMUM_PRESSURE_CEILING_TOKENS } from './limits.ts';

// the limits live apart so the engine can check them without loading the model table
export { MINIMUM_CONTEXT_WINDOW_TOKENS, MINIMUM_PRESSURE_CEILING_TOKENS };

function requireText(value: unknown, field: 'engine' | 'model'): string {
  if (value === undefined || value === null) throw new BudgetInputError('missing-field', field, `${field} is required`);
  if (typeof value !== 'string' || value.trim() === '') {
    throw new BudgetInputError('invalid-field', field, `${field} must be a non-empty string`);
  }
  return value;
}

function optionalCount(value: unknown, field: string, minimum: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new BudgetInputError(
      'invalid-field',
      field,
      `${field} must be an integer of at least ${minimum}, got ${String(value)}`,
    );
  }
  return value;
}

function resolveWindow(engine: string, model: string, explicit: number | null): ResolvedWindow {
  if (explicit !== null) return { contextWindowTokens: explicit, inputLimitTokens: null, source: 'explicit' };
  const known = lookupModelWindow(model, engine);
  if (known === null) {
    throw new BudgetInputError(
      'unknown-model',
      'contextWindowTokens',
      `model "${model}" on engine "${engine}" is not in the window table; pass contextWindowTokens`,
    );
  }
  return known;
}

/** Turn an engine, a model and optional overrides into deterministic fold limits. Throws BudgetInputError. */
export function resolveContextBudget(input: ContextBudgetInput): ContextBudget {
  if (input === null || typeof input !== 'object') {
    throw new BudgetInputError('missing-field', 'input', 'resolveContextBudget needs { engine, model }');
  }
  const engine = requireText(input.engine, 'engine');
  const model = requireText(input.model, 'model');
  const explicitWindow = optionalCount(input.contextWindowTokens, 'contextWindowTokens', MINIMUM_CONTEXT_WINDOW_TOKENS);
  const targetBandTokens = optionalCount(input.targetBandTokens, 'targetBandTokens', 1);
  const pressureCeilingTokens = optionalCount(
    input.pressureCeilingTokens,
    'pressureCeilingTokens',
    MINIMUM_PRESSURE_CEILING_TOKENS,
  );
  const window = resolveWindow(engine, model, explicitWindow);
  const numbers = deriveBudgetNumbers({
    contextWindowTokens: window.contextWindowTokens,
    inputLimitTokens: window.inputLimitTokens,
    targetBandTokens,
    pressureCeilingTokens,
  });
  return {
    engine,
    model,
    contextWindowTokens: window.contextWindowTokens,
    inputLimitTokens: window.inputLimitTokens,
    ...numbers,
    source: window.source,
  };
}
