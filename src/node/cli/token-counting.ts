import { estimateTokens } from '../../text/estimate-tokens.ts';
import type { CliOutput } from './cli-output.ts';

export type TokenizerChoice = 'o200k' | 'estimate';

export interface LoadedTokenCounter {
  readonly tokenizer: TokenizerChoice;
  readonly countTokens: (text: string) => number;
}

const ENCODING_MODULE = 'gpt-tokenizer/encoding/o200k_base';

interface EncodingModule {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

/**
 * The o200k counter from `gpt-tokenizer` when it can be imported (the benchmark's counter), the
 * built-in estimator otherwise; the estimator is said once on stderr with how to get exact counts.
 * Loaded dynamically so the command still runs where the tokenizer is not installed.
 */
export async function loadTokenCounter(
  choice: TokenizerChoice | undefined,
  output: CliOutput,
): Promise<LoadedTokenCounter> {
  if (choice !== 'estimate') {
    try {
      const encoding = (await import(ENCODING_MODULE)) as EncodingModule;
      // Special-token strings occur in real transcripts; counted as plain text, as a provider bills them.
      const plainText = { disallowedSpecial: new Set<string>() };
      return { tokenizer: 'o200k', countTokens: (text) => encoding.countTokens(text, plainText) };
    } catch {
      output.noticeOnce(
        'tokenizer',
        "gpt-tokenizer is not installed: counting with warpfold's built-in estimator (a little above o200k). For exact o200k counts: npm install gpt-tokenizer",
      );
    }
  }
  return { tokenizer: 'estimate', countTokens: estimateTokens };
}
