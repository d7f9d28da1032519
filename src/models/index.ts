export type { ModelEntry, ModelPrices, ModelProvider } from './types.ts';
export { MODEL_TABLE } from './model-table.ts';
export { findModel, longestPrefixEntry, matchesAtBoundary } from './find-model.ts';
export { normalizeModelId, type NormalizedModelId } from './normalize-model-id.ts';
