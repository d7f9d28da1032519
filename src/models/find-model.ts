import { MODEL_TABLE } from './model-table.ts';
import { normalizeModelId } from './normalize-model-id.ts';
import type { ModelEntry } from './types.ts';

const alphanumeric = /[a-z0-9]/u;

/** Whether `id` starts with `prefix` and the prefix ends at an id boundary. */
export function matchesAtBoundary(id: string, prefix: string): boolean {
  if (!id.startsWith(prefix)) return false;
  const next = id.charAt(prefix.length);
  return next === '' || !alphanumeric.test(next);
}

/** The entry with the longest prefix of an already normalized id, or null. */
export function longestPrefixEntry(id: string, table: readonly ModelEntry[] = MODEL_TABLE): ModelEntry | null {
  let best: ModelEntry | null = null;
  for (const entry of table) {
    if (!matchesAtBoundary(id, entry.prefix)) continue;
    if (best === null || entry.prefix.length > best.prefix.length) best = entry;
  }
  return best;
}

/**
 * The table's entry for a model id (`claude-opus-4-5-20251101`, `us.anthropic.claude-...`,
 * `openrouter/openai/gpt-5`), or null when no entry matches.
 */
export function findModel(model: string): ModelEntry | null {
  if (typeof model !== 'string' || model.trim() === '') return null;
  const normalized = normalizeModelId(model);
  return longestPrefixEntry(normalized.unmarkedId);
}
