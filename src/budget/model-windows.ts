import { MODEL_TABLE } from '../models/model-table.ts';
import type { ModelWindow } from './types.ts';

/**
 * Context windows by model-id prefix, read from the one model table (src/models/model-table.ts,
 * where each entry names its source and date). Pass `contextWindowTokens` when your deployment
 * differs.
 */
export const MODEL_WINDOWS: readonly ModelWindow[] = Object.freeze(
  MODEL_TABLE.map((entry) =>
    Object.freeze({
      prefix: entry.prefix,
      contextWindowTokens: entry.contextWindowTokens,
      ...(entry.inputLimitTokens === undefined ? {} : { inputLimitTokens: entry.inputLimitTokens }),
    }),
  ),
);

/** Families whose 1M variant is selected by the id itself (`claude-sonnet-4[1m]`, `claude-sonnet-4-5-1m`). */
export const ONE_MILLION_VARIANT_PREFIXES: readonly string[] = Object.freeze(['claude-']);
export const ONE_MILLION_TOKENS = 1_000_000;
