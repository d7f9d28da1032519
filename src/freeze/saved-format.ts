import type { Dialect } from '../messages/types.ts';

/**
 * The saved session format: what `FoldSession.snapshot()` writes and `restoredState` reads. It is
 * a contract of its own, separate from the engine's internal types, so that refactoring the
 * engine never breaks a stored session: a change here gets a new `version` and a migration
 * from every earlier one (see `migrateSavedState`).
 *
 * Plain JSON only (numbers, strings, booleans, null, arrays, objects), deterministic key order.
 */
export const SAVED_SESSION_FORMAT = 'warpfold/session';
export const SAVED_SESSION_VERSION = 3;

export interface SavedFoldSession {
  readonly format: typeof SAVED_SESSION_FORMAT;
  readonly version: typeof SAVED_SESSION_VERSION;
  /** `digest64` (16 hex digits) of `JSON.stringify(state)` with keys in the order documented below. */
  readonly digest: string;
  readonly state: SavedFoldState;
}

export interface SavedFoldState {
  /** Fingerprint of the fold config and ceiling the prefix was sealed under: a change re-seals. */
  readonly configFingerprint: number;
  /**
   * What the session's token counter gives for a fixed probe text (see `COUNTER_PROBE`): a
   * restore under another counter re-seals instead of trusting counts it cannot reproduce.
   * Null in states migrated from version 1, which did not record it.
   */
  readonly counterProbe: number | null;
  /** Dialect the sealed synthetic messages are written in. */
  readonly dialect: Dialect;
  readonly history: SavedHistory;
  /** The rebirth seed of the last hard epoch, or null. */
  readonly seed: SavedSeed | null;
  /** Bands in order; each starts where the previous one (or the seed, or the head) ends. */
  readonly bands: readonly SavedBand[];
  /** Raw tail messages shown clipped because one alone would not fit. */
  readonly clipped: readonly SavedClip[];
  /** Recall cards resident since the last epoch, in the order they were added. */
  readonly cards: readonly SavedCard[];
  readonly recall: SavedRecall | null;
  readonly calibration: SavedCalibration;
  readonly counters: SavedCounters;
}

export interface SavedHistory {
  /** Raw messages [0, headEnd) open the view verbatim. */
  readonly headEnd: number;
  /** The raw tail starts here; everything before it is head, seed or bands. */
  readonly coveredEnd: number;
  /** Combined fingerprint of raw messages [0, coveredEnd): a restore over another history is noticed. */
  readonly coveredFingerprint: number;
  /** History length at the last call. */
  readonly seenLength: number;
}

export interface SavedSeed {
  readonly text: string;
  readonly tokens: number;
  /** Raw messages [0, end) are represented by the seed. */
  readonly end: number;
}

export interface SavedBand {
  /** Raw messages [start, end). */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Tokens of the synthetic message carrying the band, by the session's counter. */
  readonly tokens: number;
  /** Keys of the lines the band holds, in order. */
  readonly lineKeys: readonly string[];
  /** Exact tokens per estimated token of the band's lines: the next band's first guess. */
  readonly estimateScale: number;
  /**
   * Where the band's lines came from (version 3 on), so a merge far back in a long history
   * re-folds the band from what it shows. Absent (every band of version 2): the band re-folds
   * from its raw messages.
   */
  readonly origins?: SavedBandOrigins;
}

/** What a line of a band is: the prefix it is shown with and how a merge values it. */
export type SavedLineKind = 'user' | 'assistant' | 'reasoning' | 'call' | 'argument' | 'output' | 'error';
export const SAVED_LINE_KINDS: readonly SavedLineKind[] = [
  'user',
  'assistant',
  'reasoning',
  'call',
  'argument',
  'output',
  'error',
];

export type SavedIdentifierKind =
  | 'uuid'
  | 'hash'
  | 'url'
  | 'path'
  | 'host-port'
  | 'key-value'
  | 'issue-ref'
  | 'error-code'
  | 'version'
  | 'symbol'
  | 'slug'
  | 'image';
export const SAVED_IDENTIFIER_KINDS: readonly SavedIdentifierKind[] = [
  'uuid',
  'hash',
  'url',
  'path',
  'host-port',
  'key-value',
  'issue-ref',
  'error-code',
  'version',
  'symbol',
  'slug',
  'image',
];

export interface SavedBandOrigins {
  /** Index among the band text's lines (split at `\n`) of its first body line, after the header and the omitted-calls line. */
  readonly firstLine: number;
  /** One per body line, in order: the raw message it was read from, its kind, and for a skeleton line its call's position among the message's calls. */
  readonly lines: readonly { readonly messageIndex: number; readonly kind: SavedLineKind; readonly call?: number }[];
  /** Calls the band counts without a line: [tool name, count], in the order its omitted-calls line names them. */
  readonly omitted: readonly (readonly [string, number])[];
  /** The closet's values, each with the newest raw message the band took it from. */
  readonly closet: readonly {
    readonly value: string;
    readonly kind: SavedIdentifierKind;
    readonly messageIndex: number;
  }[];
}

export interface SavedClip {
  /** Raw message index. */
  readonly index: number;
  readonly maxChars: number;
  readonly tokens: number;
}

export interface SavedCard {
  /** The card follows this raw message. */
  readonly afterIndex: number;
  readonly key: string;
  readonly text: string;
  readonly tokens: number;
}

export interface SavedRecall {
  readonly calls: number;
  readonly resident: readonly SavedResidentRecall[];
}

export interface SavedResidentRecall {
  readonly key: string;
  readonly entryId: string;
  readonly call: number;
  /** Absent when the host's clock was not read for that call. */
  readonly at?: number;
}

export interface SavedCalibration {
  readonly factor: number;
  readonly overhead: number;
  readonly anchor: readonly [counted: number, measured: number] | null;
}

export interface SavedCounters {
  /** Clock reading of the last call, or null before the first. */
  readonly lastCallAt: number | null;
  readonly lastViewTokens: number;
  readonly epochs: number;
  readonly hotReuses: number;
  readonly calls: number;
}

/** The text whose token count identifies the counter a state was written with. */
export const COUNTER_PROBE = 'warpfold counter probe: Ünïcödé «text», code `x = f(42)`;\n\t{"k": [1, 2]} 日本語 😀';
