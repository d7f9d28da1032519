/**
 * What went wrong, for a host that switches on a code rather than a class. Each area's error
 * narrows it to its own codes (see docs/errors.md); one code may serve several classes when it
 * means the same thing in each (`unsupported-version` for a saved state and a stored rail).
 */
export type WarpfoldErrorCode =
  /** A malformed history or message, or a bad argument to a provider helper or a store. */
  | 'invalid-input'
  /** A bad option or argument: a field it does not have, or a value out of its range. */
  | 'invalid-option'
  /** A field that is missing, of the wrong type, out of range, or inconsistent with another. */
  | 'invalid-field'
  | 'missing-field'
  /** A model no table knows (budget windows, prices). */
  | 'unknown-model'
  /** Not readable at all: not JSON, cut short, or in no shape any reader knows. */
  | 'unreadable'
  /** Another format, or a version this release does not know. */
  | 'unsupported-version'
  /** The content does not match its integrity digest. */
  | 'integrity'
  /** An agent CLI exited, or ended a turn, in a way its loop cannot continue from. */
  | 'cli-failed'
  // storage (`StorageErrorCode`)
  | 'session-conflict'
  | 'corrupt-record'
  | 'value-too-large'
  | 'key-too-long'
  | 'quota-exceeded'
  | 'upgrade-blocked'
  | 'indexeddb-unavailable'
  | 'storage-failed'
  // task rail operations (`TaskRailErrorCode`)
  | 'duplicate-step-id'
  | 'unknown-step'
  | 'rail-locked'
  | 'rail-empty'
  | 'rail-complete'
  | 'rail-blocked'
  | 'step-already-active'
  | 'step-already-resolved'
  | 'nothing-to-sprint'
  | 'invalid-serialized-rail';

export interface WarpfoldErrorOptions {
  /** The field at fault, as a path: `foldConfig.bandRatio`, `state.history.coveredEnd`, `history[3]`. */
  readonly field?: string;
  /** The error that led to this one (ES2022 `cause`). */
  readonly cause?: unknown;
}

/** The marker a class stamps on its instances: a registry symbol, so it is the same in every bundle copy and realm. */
const markerOf = (name: string): symbol =>
  Symbol.for(name === 'WarpfoldError' ? 'warpfold.error' : `warpfold.error.${name}`);

/**
 * The root of every error warpfold throws: a `code`, the `field` at fault where there is one, a
 * message that names both, and `cause`. Test with `WarpfoldError.isInstance(value)` (or
 * `FoldStateError.isInstance(value)`, …), which reads a marker keyed by `Symbol.for('warpfold.error')`
 * and so holds across bundled copies of warpfold and across realms, where `instanceof` does not.
 */
export class WarpfoldError extends Error {
  /** The class's name, kept through minification: it names instances and keys the class's marker. Each subclass sets its own. */
  static readonly errorName: string = 'WarpfoldError';
  readonly code: WarpfoldErrorCode;
  readonly field: string | undefined;

  constructor(code: WarpfoldErrorCode, message: string, options: WarpfoldErrorOptions = {}) {
    // Error reads only `cause` from its options, and only when the key is there
    super(message, options);
    this.code = code;
    this.field = options.field;
    this.name = new.target.errorName;
    // one marker per class of the chain, so `X.isInstance` holds for an X and for its subclasses
    for (let type: typeof WarpfoldError = new.target; ; type = Object.getPrototypeOf(type)) {
      if (Object.hasOwn(type, 'errorName')) Object.defineProperty(this, markerOf(type.errorName), { value: true });
      if (type === WarpfoldError) break;
    }
  }

  /** Whether `value` is an instance of this class (or a subclass), from any copy of warpfold in any realm. */
  static isInstance<T>(this: { readonly errorName: string; readonly prototype: T }, value: unknown): value is T {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[markerOf(this.errorName)] === true
    );
  }
}

/** Thrown for malformed input; names the message index (or -1 for the history itself) and the problem. */
export class FoldInputError extends WarpfoldError {
  static override readonly errorName: string = 'FoldInputError';
  declare readonly code: 'invalid-input' | 'invalid-option';
  /** The message at fault, or -1 for the history itself (or an option). */
  readonly messageIndex: number;
  /** What is wrong, without the location: for a host that names the place its own way. */
  readonly problem: string;

  constructor(
    messageIndex: number,
    problem: string,
    message?: string,
    options: WarpfoldErrorOptions & { readonly code?: 'invalid-option' } = {},
  ) {
    super(
      options.code ?? 'invalid-input',
      message ?? (messageIndex < 0 ? `history: ${problem}` : `message ${messageIndex}: ${problem}`),
      { field: messageIndex < 0 ? 'history' : `history[${messageIndex}]`, ...options },
    );
    this.messageIndex = messageIndex;
    this.problem = problem;
  }
}

/**
 * Thrown for a bad option or argument: of `new FoldSession(…)` or `prepare(…, options)`, a
 * `countTokens` that returns something other than a count, or a helper's argument; `field` names
 * the option. A subclass of `FoldInputError` (with `messageIndex` -1), so a host that catches bad
 * input catches it too.
 */
export class FoldOptionsError extends FoldInputError {
  static override readonly errorName: string = 'FoldOptionsError';
  declare readonly field: string;

  constructor(field: string, problem: string, options?: Omit<WarpfoldErrorOptions, 'field'>) {
    super(-1, problem, `options: ${problem}`, { ...options, field, code: 'invalid-option' });
  }

  /** @deprecated The option at fault: read `field`. */
  get option(): string {
    return this.field;
  }
}
