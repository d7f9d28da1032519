import { engineWindowCap } from './engine-windows.ts';
import { MODEL_WINDOWS, ONE_MILLION_TOKENS, ONE_MILLION_VARIANT_PREFIXES } from './model-windows.ts';
import { matchesAtBoundary } from '../models/find-model.ts';
import { normalizeModelId } from '../models/normalize-model-id.ts';
import type { ModelWindow, ResolvedWindow } from './types.ts';

function longestPrefixMatch(id: string): ModelWindow | null {
  let best: ModelWindow | null = null;
  for (const entry of MODEL_WINDOWS) {
    if (!matchesAtBoundary(id, entry.prefix)) continue;
    if (best === null || entry.prefix.length > best.prefix.length) best = entry;
  }
  return best;
}

/** Table lookup with engine caps applied; null when the model is unknown. */
export function lookupModelWindow(model: string, engine?: string): ResolvedWindow | null {
  const normalized = normalizeModelId(model);
  // The marker only means something for families that sell a 1M variant of the same model.
  const oneMillionVariant =
    normalized.oneMillionVariant && ONE_MILLION_VARIANT_PREFIXES.some((prefix) => normalized.id.startsWith(prefix));
  const entry = longestPrefixMatch(oneMillionVariant ? normalized.unmarkedId : normalized.id);
  if (entry === null) return null;
  let contextWindowTokens = entry.contextWindowTokens;
  const inputLimitTokens = entry.inputLimitTokens ?? null;
  if (oneMillionVariant) contextWindowTokens = Math.max(contextWindowTokens, ONE_MILLION_TOKENS);
  const cap = engineWindowCap(engine);
  if (cap !== null && cap < contextWindowTokens) {
    return { contextWindowTokens: cap, inputLimitTokens: null, source: 'engine-table' };
  }
  return { contextWindowTokens, inputLimitTokens, source: 'model-table' };
}

/** The context window the table knows for a model on an engine, or null when unknown. */
export function contextWindowForModel(model: string, engine?: string): number | null {
  if (typeof model !== 'string' || model.trim() === '') return null;
  return lookupModelWindow(model, engine)?.contextWindowTokens ?? null;
}
