/** Thrown for malformed input; names the message index (or -1 for the history itself) and the problem. */
export class FoldInputError extends Error {
  override readonly name: string = 'FoldInputError';
  constructor(
    readonly messageIndex: number,
    readonly problem: string,
    message?: string,
  ) {
    super(message ?? (messageIndex < 0 ? `history: ${problem}` : `message ${messageIndex}: ${problem}`));
  }
}

/**
 * Thrown for a bad option of `new FoldSession(…)` or `prepare(…, options)`, or a `countTokens`
 * that returns something other than a count; names the option and the problem. A subclass of
 * `FoldInputError` (with `messageIndex` -1), so a host that catches bad input catches it too.
 */
export class FoldOptionsError extends FoldInputError {
  override readonly name: string = 'FoldOptionsError';
  constructor(
    readonly option: string,
    problem: string,
  ) {
    super(-1, problem, `options: ${problem}`);
  }
}
