import { DIALECTS } from '../messages/types.ts';
import type { RecallState } from '../recall/recall-state.ts';
import { savedStateDigest } from './encode-saved-state.ts';
import { FoldStateError } from './fold-state-error.ts';
import type { ClippedMessage, FoldFreezeState } from './freeze-state.ts';
import { migrateVersion1, migrateVersion2 } from './migrate-saved-state.ts';
import {
  SAVED_IDENTIFIER_KINDS,
  SAVED_LINE_KINDS,
  SAVED_SESSION_FORMAT,
  SAVED_SESSION_VERSION,
  type SavedBand,
  type SavedBandOrigins,
  type SavedFoldState,
} from './saved-format.ts';
import type { FoldLineKind } from '../fold/fold-line.ts';
import type { IdentifierKind } from '../text/identifier-kinds.ts';
import { LINE_PREFIX } from '../fold/fold-line.ts';
import { isRecord } from '../text/is-record.ts';
import { describeValue as describe } from '../text/describe-value.ts';
import {
  anything,
  arrayOf,
  finite,
  integer,
  invalid,
  is,
  nonEmptyString,
  nullable,
  number,
  oneOf,
  optional,
  record,
  string,
  validate,
  type Check,
} from '../validation/check.ts';
import { MAX_CALIBRATION_FACTOR } from './calibration.ts';

/** A saved state nests six levels deep (a band origin's omitted-calls pair); anything far deeper is not one, and is refused before any recursive walk. */
const MAX_SAVED_DEPTH = 16;

export interface DecodedSavedState {
  readonly state: FoldFreezeState;
  /** The counter probe recorded with the state, or null when it predates probes. */
  readonly counterProbe: number | null;
  /** The version it was written in, before migration. */
  readonly fromVersion: number;
}

/**
 * Reads a saved session state (a JSON string or the parsed object) of any known version into
 * fresh engine objects: migrated, checked against its digest, every field validated. Throws a
 * `FoldStateError` naming the field; never mutates its input.
 */
export function decodeSavedState(input: unknown): DecodedSavedState {
  const root = parseRoot(input);
  let content: unknown;
  let fromVersion: number;
  if (root.format === undefined && root.version === 1) {
    content = migrateVersion1(root);
    fromVersion = 1;
  } else {
    if (root.format !== SAVED_SESSION_FORMAT)
      throw new FoldStateError(
        'unsupported-version',
        'format',
        `expected "${SAVED_SESSION_FORMAT}", got ${describe(root.format)}`,
      );
    const version = root.version;
    if (!Number.isInteger(version) || (version as number) < 1)
      throw new FoldStateError('invalid-field', 'version', `expected a version number, got ${describe(version)}`);
    if ((version as number) > SAVED_SESSION_VERSION)
      throw new FoldStateError(
        'unsupported-version',
        'version',
        `version ${String(version)} was written by a newer warpfold; this one reads versions 1 to ${SAVED_SESSION_VERSION}`,
      );
    // version 1 carried no format name, so a named state of an older version is no version at all
    if (version === 1)
      throw new FoldStateError(
        'unsupported-version',
        'version',
        `version ${String(version)} with a format name is not a version warpfold wrote`,
      );
    if (typeof root.digest !== 'string' || !/^[0-9a-f]{16}$/.test(root.digest))
      throw new FoldStateError('invalid-field', 'digest', `expected 16 hex digits, got ${describe(root.digest)}`);
    if (!withinDepth(root.state, MAX_SAVED_DEPTH))
      throw new FoldStateError(
        'invalid-field',
        'state',
        `nests deeper than ${MAX_SAVED_DEPTH} levels or refers to itself`,
      );
    if (savedStateDigest(root.state) !== root.digest)
      throw new FoldStateError(
        'integrity',
        'digest',
        'the content does not match its digest: it was edited or damaged after it was written',
      );
    if (version === 2 && !isRecord(root.state))
      throw new FoldStateError('invalid-field', 'state', `must be an object, got ${describe(root.state)}`);
    content = version === 2 ? migrateVersion2(root.state as Record<string, unknown>) : root.state;
    fromVersion = version as number;
  }
  const saved = validate(
    () => readSavedState(content),
    (error) => new FoldStateError('invalid-field', error.field, error.problem, { cause: error }),
  );
  return { state: toEngineState(saved), counterProbe: saved.counterProbe, fromVersion };
}

function parseRoot(input: unknown): Readonly<Record<string, unknown>> {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw new FoldStateError('unreadable', '$', `not JSON (${input.length} characters; cut short or damaged?)`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new FoldStateError('unreadable', '$', `expected a JSON object, got ${describe(value)}`);
  return value as Record<string, unknown>;
}

/** Iterative, so neither deep nor cyclic values can overflow the stack. */
function withinDepth(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return false;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return true;
}

const count = integer(0);
const positive = integer(1);
const filled = nonEmptyString;
/** The anchor of the calibration: [counted, measured]. */
const anchor: Check<readonly [number, number]> = (value, path) => {
  const pair = arrayOf(finite())(value, path);
  if (pair.length !== 2) invalid(path, `must be [counted, measured], got ${pair.length} numbers`);
  return pair as [number, number];
};

// The shapes of a saved state, each field in the order the engine's objects hold them.
const SAVED_STATE = record<Omit<SavedFoldState, 'bands'> & { bands: readonly Omit<SavedBand, 'origins'>[] }>({
  configFingerprint: count,
  counterProbe: nullable(positive),
  dialect: oneOf(DIALECTS),
  history: record({ headEnd: count, coveredEnd: count, coveredFingerprint: count, seenLength: count }),
  seed: nullable(record({ text: filled, tokens: positive, end: count })),
  // origins are read apart, once the bands are known to tile the history
  bands: arrayOf(
    record({
      start: count,
      end: count,
      text: filled,
      tokens: positive,
      lineKeys: arrayOf(string),
      estimateScale: is<number>((value) => Number.isFinite(value) && (value as number) > 0, 'a positive finite number'),
    }),
  ),
  clipped: arrayOf(record({ index: count, maxChars: positive, tokens: positive })),
  cards: arrayOf(record({ afterIndex: count, key: string, text: filled, tokens: positive })),
  recall: nullable(
    record({
      calls: count,
      resident: arrayOf(record({ key: string, entryId: string, call: count, at: optional(finite()) })),
    }),
  ),
  calibration: record({ factor: number(1, MAX_CALIBRATION_FACTOR), overhead: finite(0), anchor: nullable(anchor) }),
  counters: record({
    lastCallAt: nullable(finite()),
    lastViewTokens: count,
    epochs: count,
    hotReuses: count,
    calls: count,
  }),
});

/** Every field checked on its own, then the ranges against each other: the prefix must tile the history it claims. */
function readSavedState(value: unknown): SavedFoldState {
  const saved = SAVED_STATE(value, 'state');
  checkRanges(saved);
  // origins are read against bands already known to tile the history, so a band moved is named as such
  const rawBands = (value as { bands: ReadonlyArray<Readonly<Record<string, unknown>>> }).bands;
  return {
    ...saved,
    bands: saved.bands.map((band, i) =>
      rawBands[i].origins === undefined
        ? band
        : { ...band, origins: readOrigins(rawBands[i].origins, band, `state.bands[${i}].origins`) },
    ),
  };
}

// the saved kinds are the engine's, spelled out for the format: a kind added to either fails to compile here
type SameKinds<A, B> = [A] extends [B] ? ([B] extends [A] ? readonly A[] : never) : never;
const LINE_KINDS: SameKinds<FoldLineKind, (typeof SAVED_LINE_KINDS)[number]> = SAVED_LINE_KINDS;
const IDENTIFIER_KINDS: SameKinds<IdentifierKind, (typeof SAVED_IDENTIFIER_KINDS)[number]> = SAVED_IDENTIFIER_KINDS;

/** A tool name and how many of its calls the band counts without a line. */
const omittedCalls: Check<readonly [string, number]> = (value, path) => {
  const pair = arrayOf(anything)(value, path);
  if (pair.length !== 2) invalid(path, `must be [tool name, count], got ${pair.length} items`);
  return [filled(pair[0], `${path}[0]`), positive(pair[1], `${path}[1]`)];
};

/** A band's origins, each line and closet value inside the band's own messages and each body line shown with its kind's prefix. */
function readOrigins(value: unknown, { start, end, text }: SavedBand, field: string): SavedBandOrigins {
  const inBand: Check<number> = (index, path) => {
    const read = count(index, path);
    if (read < start || read >= end) invalid(path, `must be a message of the band, in [${start}, ${end}), got ${read}`);
    return read;
  };
  const origins = record<SavedBandOrigins>({
    firstLine: positive,
    lines: arrayOf(record({ messageIndex: inBand, kind: oneOf(LINE_KINDS), call: optional(count) })),
    omitted: arrayOf(omittedCalls),
    closet: arrayOf(record({ value: filled, kind: oneOf(IDENTIFIER_KINDS), messageIndex: inBand })),
  })(value, field);
  const textLines = text.split('\n');
  origins.lines.forEach(({ kind, call }, i) => {
    const path = `${field}.lines[${i}]`;
    if (!textLines[origins.firstLine + i]?.startsWith(LINE_PREFIX[kind]))
      invalid(path, `the band text has no ${kind} line ${origins.firstLine + i}`);
    if (call !== undefined && kind !== 'call')
      invalid(`${path}.call`, `only a call line names its call, this is ${kind}`);
  });
  return origins;
}

function checkRanges(saved: SavedFoldState): void {
  const { headEnd, coveredEnd, seenLength } = saved.history;
  const sealed = saved.seed !== null || saved.bands.length > 0;
  let end = headEnd;
  if (saved.seed) {
    if (saved.seed.end < headEnd)
      invalid('state.seed.end', `the seed ends at ${saved.seed.end}, before the head's end ${headEnd}`);
    end = saved.seed.end;
  }
  saved.bands.forEach((band, i) => {
    if (band.start !== end)
      invalid(
        `state.bands[${i}].start`,
        `must be ${end} (where the ${i === 0 ? (saved.seed ? 'seed' : 'head') : 'previous band'} ends), got ${band.start}`,
      );
    if (band.end <= band.start) invalid(`state.bands[${i}].end`, `must be more than ${band.start}, got ${band.end}`);
    end = band.end;
  });
  // head, seed and bands tile the history up to the raw tail: a band list emptied or cut short leaves a gap
  if (coveredEnd !== end)
    invalid(
      'state.history.coveredEnd',
      `the sealed prefix ends at ${end}, but the raw tail is said to start at ${coveredEnd}`,
    );
  if (seenLength < coveredEnd)
    invalid(
      'state.history.seenLength',
      `the last call saw ${seenLength} messages, fewer than the ${coveredEnd} sealed`,
    );
  let previousClip = -1;
  saved.clipped.forEach((clip, i) => {
    if (clip.index < coveredEnd || clip.index >= seenLength || clip.index <= previousClip)
      invalid(
        `state.clipped[${i}].index`,
        `must be a raw tail index in [${Math.max(coveredEnd, previousClip + 1)}, ${seenLength}), got ${clip.index}`,
      );
    previousClip = clip.index;
  });
  let previousCard = coveredEnd;
  saved.cards.forEach((card, i) => {
    if (card.afterIndex < previousCard || card.afterIndex >= seenLength)
      invalid(
        `state.cards[${i}].afterIndex`,
        `must be a raw tail index in [${previousCard}, ${seenLength}), got ${card.afterIndex}`,
      );
    previousCard = card.afterIndex;
  });
  const { epochs, hotReuses, calls } = saved.counters;
  if (sealed && epochs === 0) invalid('state.counters.epochs', 'a sealed prefix needs at least one epoch');
  if (epochs + hotReuses > calls)
    invalid('state.counters.calls', `${calls} calls cannot hold ${epochs} epochs and ${hotReuses} hot reuses`);
}

function toEngineState(saved: SavedFoldState): FoldFreezeState {
  const clipped: Record<string, ClippedMessage> = {};
  for (const clip of saved.clipped) clipped[String(clip.index)] = { maxChars: clip.maxChars, tokens: clip.tokens };
  const recall: RecallState | null = saved.recall
    ? { version: 1, calls: saved.recall.calls, resident: saved.recall.resident }
    : null;
  return {
    configFingerprint: saved.configFingerprint,
    dialect: saved.dialect,
    headEnd: saved.history.headEnd,
    seed: saved.seed,
    bands: saved.bands,
    coveredEnd: saved.history.coveredEnd,
    coveredFingerprint: saved.history.coveredFingerprint,
    clipped,
    lastCallAt: saved.counters.lastCallAt,
    lastViewTokens: saved.counters.lastViewTokens,
    calibration: saved.calibration,
    epochs: saved.counters.epochs,
    hotReuses: saved.counters.hotReuses,
    calls: saved.counters.calls,
    seenLength: saved.history.seenLength,
    cards: saved.cards,
    recall,
  };
}
