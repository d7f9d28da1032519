/** Thrown for malformed input; names the message index (or -1 for the history itself) and the problem. */
export class FoldInputError extends Error {
  override readonly name = 'FoldInputError';
  constructor(
    readonly messageIndex: number,
    readonly problem: string,
  ) {
    super(messageIndex < 0 ? `history: ${problem}` : `message ${messageIndex}: ${problem}`);
  }
}
