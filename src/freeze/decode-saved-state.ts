import { DIALECTS, type Dialect } from '../messages/types.ts';
import type { RecallState } from '../recall/recall-state.ts';
import { savedStateDigest } from './encode-saved-state.ts';
import { FoldStateError } from './fold-state-error.ts';
import type { ClippedMessage, FoldFreezeState } from './freeze-state.ts';
import { migrateVersion1, migrateVersion2 } from './migrate-saved-state.ts';
import { SAVED_IDENTIFIER_KINDS, SAVED_LINE_KINDS, SAVED_SESSION_FORMAT, SAVED_SESSION_VERSION, type SavedBand, type SavedBandOrigins, type SavedCard, type SavedFoldState } from './saved-format.ts';
import type { FoldLineKind } from '../fold/fold-line.ts';
import type { IdentifierKind } from '../text/identifier-kinds.ts';
import { LINE_PREFIX } from '../fold/fold-line.ts';

/** A saved state nests six levels deep (a band origin's omitted-calls pair); anything far deeper is not one, and is refused before any recursive walk. */
const MAX_SAVED_DEPTH = 16;
/** The calibration factor's range: the session never solves it outside [1, 3]. */
const MAX_CALIBRATION_FACTOR = 3;

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
    if (root.format !== SAVED_SESSION_FORMAT) throw new FoldStateError('unsupported-version', 'format', `expected "${SAVED_SESSION_FORMAT}", got ${describe(root.format)}`);
    const version = root.version;
    if (!Number.isInteger(version) || (version as number) < 1) throw new FoldStateError('invalid-field', 'version', `expected a version number, got ${describe(version)}`);
    if ((version as number) > SAVED_SESSION_VERSION) throw new FoldStateError('unsupported-version', 'version', `version ${String(version)} was written by a newer warpfold; this one reads versions 1 to ${SAVED_SESSION_VERSION}`);
    // version 1 carried no format name, so a named state of an older version is no version at all
    if (version === 1) throw new FoldStateError('unsupported-version', 'version', `version ${String(version)} with a format name is not a version warpfold wrote`);
    if (typeof root.digest !== 'string' || !/^[0-9a-f]{16}$/.test(root.digest)) throw new FoldStateError('invalid-field', 'digest', `expected 16 hex digits, got ${describe(root.digest)}`);
    if (!withinDepth(root.state, MAX_SAVED_DEPTH)) throw new FoldStateError('invalid-field', 'state', `nests deeper than ${MAX_SAVED_DEPTH} levels or refers to itself`);
    if (savedStateDigest(root.state) !== root.digest) throw new FoldStateError('integrity', 'digest', 'the content does not match its digest: it was edited or damaged after it was written');
    content = version === 2 ? migrateVersion2(record(root.state, 'state')) : root.state;
    fromVersion = version as number;
  }
  const saved = readSavedState(content);
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
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new FoldStateError('unreadable', '$', `expected a JSON object, got ${describe(value)}`);
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

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function invalid(field: string, detail: string): never {
  throw new FoldStateError('invalid-field', field, detail);
}

function record(value: unknown, field: string): Readonly<Record<string, unknown>> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) invalid(field, `expected an object, got ${describe(value)}`);
  return value as Record<string, unknown>;
}

function list(value: unknown, field: string): readonly unknown[] {
  if (!Array.isArray(value)) invalid(field, `expected an array, got ${describe(value)}`);
  return value;
}

function count(value: unknown, field: string, minimum = 0): number {
  if (!Number.isSafeInteger(value) || (value as number) < minimum) invalid(field, `expected an integer ≥ ${minimum}, got ${describe(value)}`);
  return value as number;
}

function finite(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) invalid(field, `expected a finite number, got ${describe(value)}`);
  return value;
}

function text(value: unknown, field: string, nonEmpty = false): string {
  if (typeof value !== 'string' || (nonEmpty && value.length === 0)) invalid(field, `expected ${nonEmpty ? 'a non-empty' : 'a'} string, got ${describe(value)}`);
  return value;
}

/** Every field checked on its own, then the ranges against each other: the prefix must tile the history it claims. */
function readSavedState(value: unknown): SavedFoldState {
  const state = record(value, 'state');
  const dialect = state.dialect;
  if (!DIALECTS.includes(dialect as Dialect)) invalid('state.dialect', `expected one of ${DIALECTS.join(', ')}, got ${describe(dialect)}`);
  const historyRecord = record(state.history, 'state.history');
  const history = {
    headEnd: count(historyRecord.headEnd, 'state.history.headEnd'),
    coveredEnd: count(historyRecord.coveredEnd, 'state.history.coveredEnd'),
    coveredFingerprint: count(historyRecord.coveredFingerprint, 'state.history.coveredFingerprint'),
    seenLength: count(historyRecord.seenLength, 'state.history.seenLength'),
  };
  let seed: SavedFoldState['seed'] = null;
  if (state.seed !== null) {
    const seedRecord = record(state.seed, 'state.seed');
    seed = { text: text(seedRecord.text, 'state.seed.text', true), tokens: count(seedRecord.tokens, 'state.seed.tokens', 1), end: count(seedRecord.end, 'state.seed.end') };
  }
  const bands = list(state.bands, 'state.bands').map((item, i): SavedBand => {
    const field = `state.bands[${i}]`;
    const band = record(item, field);
    const scale = finite(band.estimateScale, `${field}.estimateScale`);
    if (scale <= 0) invalid(`${field}.estimateScale`, `expected a positive number, got ${scale}`);
    return {
      start: count(band.start, `${field}.start`),
      end: count(band.end, `${field}.end`),
      text: text(band.text, `${field}.text`, true),
      tokens: count(band.tokens, `${field}.tokens`, 1),
      lineKeys: list(band.lineKeys, `${field}.lineKeys`).map((key, k) => text(key, `${field}.lineKeys[${k}]`)),
      estimateScale: scale,
    };
  });
  const clipped = list(state.clipped, 'state.clipped').map((item, i) => {
    const clip = record(item, `state.clipped[${i}]`);
    return { index: count(clip.index, `state.clipped[${i}].index`), maxChars: count(clip.maxChars, `state.clipped[${i}].maxChars`, 1), tokens: count(clip.tokens, `state.clipped[${i}].tokens`, 1) };
  });
  const cards = list(state.cards, 'state.cards').map((item, i): SavedCard => {
    const card = record(item, `state.cards[${i}]`);
    return { afterIndex: count(card.afterIndex, `state.cards[${i}].afterIndex`), key: text(card.key, `state.cards[${i}].key`), text: text(card.text, `state.cards[${i}].text`, true), tokens: count(card.tokens, `state.cards[${i}].tokens`, 1) };
  });
  let recall: SavedFoldState['recall'] = null;
  if (state.recall !== null) {
    const recallRecord = record(state.recall, 'state.recall');
    recall = {
      calls: count(recallRecord.calls, 'state.recall.calls'),
      resident: list(recallRecord.resident, 'state.recall.resident').map((item, i) => {
        const field = `state.recall.resident[${i}]`;
        const resident = record(item, field);
        return {
          key: text(resident.key, `${field}.key`),
          entryId: text(resident.entryId, `${field}.entryId`),
          call: count(resident.call, `${field}.call`),
          ...(resident.at === undefined ? {} : { at: finite(resident.at, `${field}.at`) }),
        };
      }),
    };
  }
  const calibrationRecord = record(state.calibration, 'state.calibration');
  const factor = finite(calibrationRecord.factor, 'state.calibration.factor');
  if (factor < 1 || factor > MAX_CALIBRATION_FACTOR) invalid('state.calibration.factor', `expected a number in [1, ${MAX_CALIBRATION_FACTOR}], got ${factor}`);
  const overhead = finite(calibrationRecord.overhead, 'state.calibration.overhead');
  if (overhead < 0) invalid('state.calibration.overhead', `expected a number ≥ 0, got ${overhead}`);
  let anchor: readonly [number, number] | null = null;
  if (calibrationRecord.anchor !== null) {
    const pair = list(calibrationRecord.anchor, 'state.calibration.anchor');
    if (pair.length !== 2) invalid('state.calibration.anchor', `expected [counted, measured], got ${pair.length} numbers`);
    anchor = [finite(pair[0], 'state.calibration.anchor[0]'), finite(pair[1], 'state.calibration.anchor[1]')];
  }
  const countersRecord = record(state.counters, 'state.counters');
  const counters = {
    lastCallAt: countersRecord.lastCallAt === null ? null : finite(countersRecord.lastCallAt, 'state.counters.lastCallAt'),
    lastViewTokens: count(countersRecord.lastViewTokens, 'state.counters.lastViewTokens'),
    epochs: count(countersRecord.epochs, 'state.counters.epochs'),
    hotReuses: count(countersRecord.hotReuses, 'state.counters.hotReuses'),
    calls: count(countersRecord.calls, 'state.counters.calls'),
  };
  const saved: SavedFoldState = {
    configFingerprint: count(state.configFingerprint, 'state.configFingerprint'),
    counterProbe: state.counterProbe === null ? null : count(state.counterProbe, 'state.counterProbe', 1),
    dialect: dialect as Dialect,
    history,
    seed,
    bands,
    clipped,
    cards,
    recall,
    calibration: { factor, overhead, anchor },
    counters,
  };
  checkRanges(saved);
  // origins are read against bands already known to tile the history, so a band moved is named as such
  const rawBands = state.bands as ReadonlyArray<Readonly<Record<string, unknown>>>;
  return { ...saved, bands: bands.map((band, i) => (rawBands[i].origins === undefined ? band : { ...band, origins: readOrigins(rawBands[i].origins, band, `state.bands[${i}].origins`) })) };
}

// the saved kinds are the engine's, spelled out for the format: a kind added to either fails to compile here
type SameKinds<A, B> = [A] extends [B] ? ([B] extends [A] ? readonly A[] : never) : never;
const LINE_KINDS: SameKinds<FoldLineKind, (typeof SAVED_LINE_KINDS)[number]> = SAVED_LINE_KINDS;
const IDENTIFIER_KINDS: SameKinds<IdentifierKind, (typeof SAVED_IDENTIFIER_KINDS)[number]> = SAVED_IDENTIFIER_KINDS;

/** A band's origins, each line and closet value inside the band's own messages and each body line shown with its kind's prefix. */
function readOrigins(value: unknown, { start, end, text: bandText }: SavedBand, field: string): SavedBandOrigins {
  const origins = record(value, field);
  const inBand = (index: unknown, at: string) => {
    const read = count(index, at);
    if (read < start || read >= end) invalid(at, `expected a message of the band, in [${start}, ${end}), got ${read}`);
    return read;
  };
  const textLines = bandText.split('\n');
  const firstLine = count(origins.firstLine, `${field}.firstLine`, 1);
  const lines = list(origins.lines, `${field}.lines`).map((item, i) => {
    const at = `${field}.lines[${i}]`;
    const line = record(item, at);
    if (!LINE_KINDS.includes(line.kind as FoldLineKind)) invalid(`${at}.kind`, `expected one of ${LINE_KINDS.join(', ')}, got ${describe(line.kind)}`);
    const kind = line.kind as FoldLineKind;
    const shown = textLines[firstLine + i];
    if (shown === undefined || !shown.startsWith(LINE_PREFIX[kind])) invalid(at, `the band text has no ${kind} line ${firstLine + i}`);
    if (line.call !== undefined && kind !== 'call') invalid(`${at}.call`, `only a call line names its call, this is ${kind}`);
    const messageIndex = inBand(line.messageIndex, `${at}.messageIndex`);
    return line.call === undefined ? { messageIndex, kind } : { messageIndex, kind, call: count(line.call, `${at}.call`) };
  });
  const omitted = list(origins.omitted, `${field}.omitted`).map((item, i): readonly [string, number] => {
    const pair = list(item, `${field}.omitted[${i}]`);
    if (pair.length !== 2) invalid(`${field}.omitted[${i}]`, `expected [tool name, count], got ${pair.length} items`);
    return [text(pair[0], `${field}.omitted[${i}][0]`, true), count(pair[1], `${field}.omitted[${i}][1]`, 1)];
  });
  const closet = list(origins.closet, `${field}.closet`).map((item, i) => {
    const at = `${field}.closet[${i}]`;
    const entry = record(item, at);
    if (!IDENTIFIER_KINDS.includes(entry.kind as IdentifierKind)) invalid(`${at}.kind`, `expected one of ${IDENTIFIER_KINDS.join(', ')}, got ${describe(entry.kind)}`);
    return { value: text(entry.value, `${at}.value`, true), kind: entry.kind as IdentifierKind, messageIndex: inBand(entry.messageIndex, `${at}.messageIndex`) };
  });
  return { firstLine, lines, omitted, closet };
}

function checkRanges(saved: SavedFoldState): void {
  const { headEnd, coveredEnd, seenLength } = saved.history;
  const sealed = saved.seed !== null || saved.bands.length > 0;
  let end = headEnd;
  if (saved.seed) {
    if (saved.seed.end < headEnd) invalid('state.seed.end', `the seed ends at ${saved.seed.end}, before the head's end ${headEnd}`);
    end = saved.seed.end;
  }
  saved.bands.forEach((band, i) => {
    if (band.start !== end) invalid(`state.bands[${i}].start`, `expected ${end} (where the ${i === 0 ? (saved.seed ? 'seed' : 'head') : 'previous band'} ends), got ${band.start}`);
    if (band.end <= band.start) invalid(`state.bands[${i}].end`, `expected more than ${band.start}, got ${band.end}`);
    end = band.end;
  });
  // head, seed and bands tile the history up to the raw tail: a band list emptied or cut short leaves a gap
  if (coveredEnd !== end) invalid('state.history.coveredEnd', `the sealed prefix ends at ${end}, but the raw tail is said to start at ${coveredEnd}`);
  if (seenLength < coveredEnd) invalid('state.history.seenLength', `the last call saw ${seenLength} messages, fewer than the ${coveredEnd} sealed`);
  let previousClip = -1;
  saved.clipped.forEach((clip, i) => {
    if (clip.index < coveredEnd || clip.index >= seenLength || clip.index <= previousClip) invalid(`state.clipped[${i}].index`, `expected a raw tail index in [${Math.max(coveredEnd, previousClip + 1)}, ${seenLength}), got ${clip.index}`);
    previousClip = clip.index;
  });
  let previousCard = coveredEnd;
  saved.cards.forEach((card, i) => {
    if (card.afterIndex < previousCard || card.afterIndex >= seenLength) invalid(`state.cards[${i}].afterIndex`, `expected a raw tail index in [${previousCard}, ${seenLength}), got ${card.afterIndex}`);
    previousCard = card.afterIndex;
  });
  const { epochs, hotReuses, calls } = saved.counters;
  if (sealed && epochs === 0) invalid('state.counters.epochs', 'a sealed prefix needs at least one epoch');
  if (epochs + hotReuses > calls) invalid('state.counters.calls', `${calls} calls cannot hold ${epochs} epochs and ${hotReuses} hot reuses`);
}

function toEngineState(saved: SavedFoldState): FoldFreezeState {
  const clipped: Record<string, ClippedMessage> = {};
  for (const clip of saved.clipped) clipped[String(clip.index)] = { maxChars: clip.maxChars, tokens: clip.tokens };
  const recall: RecallState | null = saved.recall ? { version: 1, calls: saved.recall.calls, resident: saved.recall.resident } : null;
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
