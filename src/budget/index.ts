export type {
  BudgetSource,
  CompressionProfile,
  ContextBudget,
  ContextBudgetInput,
  EvictionPolicy,
  ModelWindow,
} from './types.ts';
export type { BudgetInputErrorCode } from './budget-input-error.ts';
export { BudgetInputError } from './budget-input-error.ts';
export type { CeilingChoice, CeilingRuleInput, CeilingSource } from './ceiling-rule.ts';
export { DEFAULT_CEILING_TOKENS, resolveCeiling } from './ceiling-rule.ts';
export { MODEL_WINDOWS } from './model-windows.ts';
export type { ModelEntry, ModelPrices, ModelProvider } from '../models/types.ts';
export { MODEL_TABLE } from '../models/model-table.ts';
export { findModel } from '../models/find-model.ts';
export { contextWindowForModel } from './context-window-for-model.ts';
export {
  MINIMUM_CONTEXT_WINDOW_TOKENS,
  MINIMUM_PRESSURE_CEILING_TOKENS,
  resolveContextBudget,
} from './resolve-context-budget.ts';
