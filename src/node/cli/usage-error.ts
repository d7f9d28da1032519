import { WarpfoldError } from '../../errors.ts';

/** Bad command-line usage: an unknown option, a missing argument, a value out of range. Exit code 2. */
export class UsageError extends WarpfoldError {
  static override readonly errorName: string = 'UsageError';
  /** The subcommand whose help to point at, when there is one. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super('invalid-option', message, command === undefined ? {} : { field: command });
    this.command = command;
  }
}

/** Exit codes every subcommand shares. */
export const EXIT_OK = 0;
export const EXIT_FILE_FAILED = 1;
export const EXIT_USAGE = 2;
