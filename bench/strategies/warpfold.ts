import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  foldSessionStrategy,
  type FoldSessionConstructor,
  type StrategyDefinition,
} from '../../src/baselines/index.ts';

export const DEFAULT_ENGINE_PATH = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

export type WarpfoldLoad = { readonly definition: StrategyDefinition } | { readonly missing: string };

/**
 * Loads FoldSession lazily from `enginePath` (the project's src/index.ts by default, or any
 * built index.js), so the baselines run while the engine does not exist yet.
 */
export async function loadWarpfold(
  enginePath = DEFAULT_ENGINE_PATH,
  engineOptions: Record<string, unknown> = {},
): Promise<WarpfoldLoad> {
  const shown = relative(process.cwd(), enginePath) || enginePath;
  if (!existsSync(enginePath)) return { missing: `engine not found at ${shown}` };
  let module: { FoldSession?: unknown };
  try {
    module = (await import(pathToFileURL(enginePath).href)) as { FoldSession?: unknown };
  } catch (error) {
    return { missing: `engine at ${shown} failed to load: ${(error as Error).message}` };
  }
  if (typeof module.FoldSession !== 'function') return { missing: `${shown} has no FoldSession export` };
  return { definition: foldSessionStrategy(module.FoldSession as FoldSessionConstructor, engineOptions) };
}
