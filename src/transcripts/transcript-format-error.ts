import { WarpfoldError } from '../errors.ts';

/**
 * Thrown only when a text holds nothing readable as a transcript: empty, not JSON at all, or JSON
 * in no shape any reader knows. Mid-file damage is reported in `issues` instead.
 */
export class TranscriptFormatError extends WarpfoldError {
  static override readonly errorName: string = 'TranscriptFormatError';
  declare readonly code: 'unreadable';
  /** The format that was tried, or `unknown` when detection itself failed. */
  readonly format: string;
  /** 1-based line the problem was found at; 0 for the text as a whole. */
  readonly line: number;
  /** What is wrong, without the format and line. */
  readonly problem: string;

  constructor(format: string, line: number, problem: string) {
    super(
      'unreadable',
      line > 0 ? `${format}: line ${line}: ${problem}` : `${format}: ${problem}`,
      line > 0 ? { field: `line ${line}` } : {},
    );
    this.format = format;
    this.line = line;
    this.problem = problem;
  }
}
