import { WarpfoldError } from '../errors.ts';

/** What is wrong with a saved session state: the `code` of a `FoldStateError`. */
export type FoldStateProblem =
  /** Not JSON, cut short, or not an object at all. */
  | 'unreadable'
  /** Another format, or a version this release does not know (written by a newer warpfold). */
  | 'unsupported-version'
  /** The content does not match its integrity digest: edited or damaged after it was written. */
  | 'integrity'
  /** A field is missing, of the wrong type, out of range, or inconsistent with another field. */
  | 'invalid-field';

/**
 * Thrown when a saved session state (see `SavedFoldSession`) cannot be restored. It names the
 * field (a JSON path such as `state.bands[2].text`) and the problem; nothing is half-restored.
 */
export class FoldStateError extends WarpfoldError {
  static override readonly errorName: string = 'FoldStateError';
  declare readonly code: FoldStateProblem;
  declare readonly field: string;
  /** What is wrong with the field, without the location. */
  readonly detail: string;

  constructor(code: FoldStateProblem, field: string, detail: string, options?: { readonly cause?: unknown }) {
    super(code, `saved session state, ${field}: ${detail}`, { ...options, field });
    this.detail = detail;
  }

  /** @deprecated The same as `code`. */
  get problem(): FoldStateProblem {
    return this.code;
  }
}
