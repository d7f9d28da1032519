/**
 * The dialect hooks are thin: `warpfold/providers/ai-sdk` and `warpfold/providers/openai` bundle without the
 * engine (the session is passed in) and without the `ai` or `openai` packages, so a host pays only
 * for what it imports.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Minified size each entry stays under: a few helpers, no engine code (the OpenAI entry holds the chat and Responses helpers both, and ProviderInputError brings the WarpfoldError root). */
const HOOK_BUNDLE_LIMIT_BYTES: Record<string, number> = {
  'src/providers/ai-sdk/index.ts': 3_000,
  'src/providers/openai/index.ts': 5_500,
};

describe.each(Object.keys(HOOK_BUNDLE_LIMIT_BYTES))('%s', (entry) => {
  it('bundles without the engine or a provider SDK', async () => {
    const result = await build({
      entryPoints: [join(ROOT, entry)],
      bundle: true,
      write: false,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(
      inputs.filter(
        (input) =>
          /src\/(session|fold|closet)\/|src\/messages\/transcript\.ts/.test(input) || input.includes('node_modules'),
      ),
    ).toEqual([]);
    expect(result.outputFiles[0].text.length).toBeLessThan(HOOK_BUNDLE_LIMIT_BYTES[entry]);
  });
});
