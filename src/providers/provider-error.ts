/** Bad input to a provider helper (or a response it cannot read); names the field and the problem. */
export class ProviderInputError extends Error {
  override readonly name = 'ProviderInputError';
  constructor(
    /** `anthropic`, `openai`, `gemini`, `claude-cli`, … */
    readonly provider: string,
    /** The option or response path that is wrong, e.g. `sealedBoundary` or `messages[3].role`. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${provider}: ${field}: ${problem}`);
  }
}
