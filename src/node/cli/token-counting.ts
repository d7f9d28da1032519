import { countTokens } from '../../tokens/count-tokens.ts';

export type TokenizerChoice = 'o200k';

export interface LoadedTokenCounter {
  readonly tokenizer: TokenizerChoice;
  readonly countTokens: (text: string) => number;
}

/**
 * The o200k counter (gpt-tokenizer's o200k_base): the benchmark's counter. dist/cli.js bundles the
 * encoder, so the command counts exactly wherever it runs, with nothing else installed; no
 * estimator stands in (the built-in one was 40-85% above o200k on test/fixtures/sessions).
 */
export function loadTokenCounter(): LoadedTokenCounter {
  return { tokenizer: 'o200k', countTokens };
}
