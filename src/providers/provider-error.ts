import { WarpfoldError } from '../errors.ts';

/** Bad input to a provider helper (or a response it cannot read); names the field and the problem. */
export class ProviderInputError extends WarpfoldError {
  static override readonly errorName: string = 'ProviderInputError';
  declare readonly code: 'invalid-input';
  /** The option or response path that is wrong, e.g. `sealedBoundary` or `messages[3].role`. */
  declare readonly field: string;
  /** `anthropic`, `openai`, `gemini`, `claude-cli`, … */
  readonly provider: string;
  /** What is wrong, without the provider and field. */
  readonly problem: string;

  constructor(provider: string, field: string, problem: string) {
    super('invalid-input', `${provider}: ${field}: ${problem}`, { field });
    this.provider = provider;
    this.problem = problem;
  }
}
