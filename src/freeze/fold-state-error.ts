/** What is wrong with a saved session state. */
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
export class FoldStateError extends Error {
  override readonly name = 'FoldStateError';
  constructor(
    readonly problem: FoldStateProblem,
    readonly field: string,
    readonly detail: string,
  ) {
    super(`saved session state, ${field}: ${detail}`);
  }
}
