/**
 * Thrown only when a text holds nothing readable as a transcript: empty, not JSON at all, or JSON
 * in no shape any reader knows. Mid-file damage is reported in `issues` instead.
 */
export class TranscriptFormatError extends Error {
  override readonly name = 'TranscriptFormatError';
  constructor(
    /** The format that was tried, or `unknown` when detection itself failed. */
    readonly format: string,
    /** 1-based line the problem was found at; 0 for the text as a whole. */
    readonly line: number,
    readonly problem: string,
  ) {
    super(line > 0 ? `${format}: line ${line}: ${problem}` : `${format}: ${problem}`);
  }
}
