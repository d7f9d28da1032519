import type { Episode } from '../episodes/types.ts';
import { restoreTaskRail } from '../task-rail/restore-task-rail.ts';
import { serializeTaskRail, type SerializedTaskRail } from '../task-rail/serialized-task-rail.ts';
import type { TaskRail } from '../task-rail/types.ts';
import { CorruptRecordError, StorageInputError, type RecordKind } from './storage-errors.ts';
import type { JsonValue, StorageOptions } from './storage-types.ts';
import { isRecord as isObject } from '../text/is-record.ts';

/**
 * Every stored record is JSON text of one envelope: `{ recordVersion, kind, id, ...payload }`.
 *
 * - Version 0 is what came before the stores: a bare episode document (as the first memory episode store
 *   held them) or a bare `serializeTaskRail` document. Both are read and migrated to version 1.
 *   Sessions had no stored form before, so a bare session document is not a session record.
 * - Version 1 wraps the payload: `episode`, `rail` (serialized, with its own format version), or a
 *   session's `version` and opaque `state`.
 * - A record version newer than this code knows is reported as `future-version`, never guessed at.
 */
export const STORAGE_RECORD_VERSION = 1;

export interface EpisodeRecord {
  readonly recordVersion: typeof STORAGE_RECORD_VERSION;
  readonly kind: 'episode';
  readonly id: string;
  readonly episode: Episode;
}

export interface SessionRecord {
  readonly recordVersion: typeof STORAGE_RECORD_VERSION;
  readonly kind: 'session';
  readonly id: string;
  readonly version: number;
  readonly state: JsonValue;
}

export interface RailRecord {
  readonly recordVersion: typeof STORAGE_RECORD_VERSION;
  readonly kind: 'rail';
  readonly id: string;
  readonly rail: SerializedTaskRail;
}

type JsonObject = Record<string, unknown>;

class Invalid {
  constructor(readonly detail: string) {}
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function ensure(condition: boolean, detail: string): asserts condition {
  if (!condition) throw new Invalid(detail);
}

const outcomes = new Set(['succeeded', 'failed', 'abandoned', 'open']);
const touches = new Set(['read', 'edited', 'created']);
const conclusionKinds = new Set(['verdict', 'hazard', 'answer']);

/** Checks the fields indexes and ordering read; a record that passes can be indexed and sorted safely. */
function checkEpisode(value: unknown): Episode {
  ensure(isObject(value), 'episode must be an object');
  ensure(typeof value.id === 'string' && value.id !== '', 'episode.id must be a non-empty string');
  ensure(typeof value.sessionId === 'string', 'episode.sessionId must be a string');
  ensure(typeof value.request === 'string', 'episode.request must be a string');
  ensure(typeof value.outcome === 'string' && outcomes.has(value.outcome), 'episode.outcome is not a known outcome');
  ensure(Array.isArray(value.files), 'episode.files must be an array');
  value.files.forEach((file: unknown, index) => ensure(isObject(file) && typeof file.path === 'string' && typeof file.how === 'string' && touches.has(file.how), `episode.files[${index}] must be { path, how }`));
  ensure(Array.isArray(value.conclusions), 'episode.conclusions must be an array');
  value.conclusions.forEach((conclusion: unknown, index) =>
    ensure(
      isObject(conclusion) && typeof conclusion.kind === 'string' && conclusionKinds.has(conclusion.kind) && typeof conclusion.text === 'string' && isCount(conclusion.messageIndex) && Array.isArray(conclusion.paths) && conclusion.paths.every((path) => typeof path === 'string'),
      `episode.conclusions[${index}] must be { kind, text, messageIndex, paths }`,
    ),
  );
  const span = value.span;
  ensure(isObject(span) && isCount(span.startIndex) && isCount(span.endIndex), 'episode.span must hold startIndex and endIndex');
  ensure(span.startedAt === undefined || Number.isFinite(span.startedAt), 'episode.span.startedAt must be a number');
  ensure(span.endedAt === undefined || Number.isFinite(span.endedAt), 'episode.span.endedAt must be a number');
  return value as unknown as Episode;
}

/** The episode when `value` has an episode's shape, else undefined. */
export function checkEpisodeShape(value: unknown): Episode | undefined {
  try {
    return checkEpisode(value);
  } catch (error) {
    if (error instanceof Invalid) return undefined;
    throw error;
  }
}

/** JSON text of a value, or a typed refusal naming the field; nothing half-converted reaches a backend. */
export function jsonText(value: unknown, field: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new StorageInputError(field, `is not JSON-serializable (${error instanceof Error ? error.message : String(error)})`);
  }
  if (text === undefined) throw new StorageInputError(field, 'is not a JSON value');
  return text;
}

export function checkId(id: unknown, field = 'id'): string {
  if (typeof id !== 'string' || id === '') throw new StorageInputError(field, 'must be a non-empty string');
  return id;
}

export function encodeEpisode(episode: Episode): string {
  const id = checkId(episode?.id, 'episode.id');
  try {
    checkEpisode(JSON.parse(jsonText(episode, 'episode')));
  } catch (error) {
    if (error instanceof Invalid) throw new StorageInputError('episode', error.detail);
    throw error;
  }
  const record: EpisodeRecord = { recordVersion: STORAGE_RECORD_VERSION, kind: 'episode', id, episode };
  return JSON.stringify(record);
}

/** `stateText` comes from `jsonText(state, 'state')`, worked out once before the store's transaction. */
export function encodeSession(id: string, version: number, stateText: string): string {
  return `{"recordVersion":${STORAGE_RECORD_VERSION},"kind":"session","id":${JSON.stringify(id)},"version":${version},"state":${stateText}}`;
}

export function encodeRail(rail: TaskRail): string {
  const restored = restoreTaskRail(serializeTaskRail(rail));
  if (!restored.ok) throw new StorageInputError(`rail.${restored.error.field ?? ''}`.replace(/\.$/, ''), restored.error.message);
  const record: RailRecord = { recordVersion: STORAGE_RECORD_VERSION, kind: 'rail', id: rail.id, rail: serializeTaskRail(restored.rail) };
  return JSON.stringify(record);
}

/** Brings a parsed record of any known version up to the current one. */
function migrate(kind: RecordKind, value: unknown): JsonObject {
  ensure(isObject(value), 'a record must be a JSON object');
  if (value.recordVersion === undefined) {
    // version 0: the bare documents written before the stores existed
    if (kind === 'episode' && typeof value.id === 'string' && Array.isArray(value.files)) return { recordVersion: 1, kind, id: value.id, episode: value };
    if (kind === 'rail' && typeof value.id === 'string' && Array.isArray(value.steps)) return { recordVersion: 1, kind, id: value.id, rail: value };
    throw new Invalid('no recordVersion, and not a bare document of an earlier writer');
  }
  ensure(isCount(value.recordVersion), 'recordVersion must be a non-negative integer');
  if ((value.recordVersion as number) > STORAGE_RECORD_VERSION) throw new FutureVersion(value.recordVersion as number);
  ensure(value.recordVersion === STORAGE_RECORD_VERSION, `recordVersion ${String(value.recordVersion)} is not one this code migrates`);
  ensure(value.kind === kind, `kind is ${JSON.stringify(value.kind)}, expected "${kind}"`);
  return value;
}

class FutureVersion {
  constructor(readonly version: number) {}
}

/** Parses and migrates one record; an unreadable one becomes a `CorruptRecordError` to report, never a throw. */
function decode<T>(kind: RecordKind, key: string, expectedId: string | undefined, text: unknown, read: (record: JsonObject) => T): T | CorruptRecordError {
  if (typeof text !== 'string') return new CorruptRecordError(kind, key, 'invalid-record', `stored value is ${text === null ? 'null' : typeof text}, not JSON text`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return new CorruptRecordError(kind, key, 'invalid-json', error instanceof Error ? error.message : String(error));
  }
  try {
    const record = migrate(kind, parsed);
    ensure(typeof record.id === 'string' && record.id !== '', 'id must be a non-empty string');
    ensure(expectedId === undefined || record.id === expectedId, `id is "${String(record.id)}", stored under "${expectedId}"`);
    return read(record);
  } catch (error) {
    if (error instanceof FutureVersion) return new CorruptRecordError(kind, key, 'future-version', `recordVersion ${error.version} is newer than ${STORAGE_RECORD_VERSION}, the newest this code reads`);
    if (error instanceof Invalid) return new CorruptRecordError(kind, key, 'invalid-record', error.detail);
    throw error;
  }
}

export function decodeEpisode(key: string, expectedId: string | undefined, text: unknown): Episode | CorruptRecordError {
  return decode('episode', key, expectedId, text, (record) => {
    const episode = checkEpisode(record.episode);
    ensure(episode.id === record.id, 'episode.id differs from the record id');
    return episode;
  });
}

export function decodeSession(key: string, expectedId: string | undefined, text: unknown): SessionRecord | CorruptRecordError {
  return decode('session', key, expectedId, text, (record) => {
    ensure(Number.isSafeInteger(record.version) && (record.version as number) >= 1, 'version must be an integer of at least 1');
    ensure('state' in record, 'state is missing');
    return record as unknown as SessionRecord;
  });
}

export function decodeRail(key: string, expectedId: string | undefined, text: unknown): TaskRail | CorruptRecordError {
  return decode('rail', key, expectedId, text, (record) => {
    const restored = restoreTaskRail(record.rail);
    ensure(restored.ok, restored.ok ? '' : `rail.${restored.error.field ?? ''}: ${restored.error.message}`);
    ensure(restored.rail.id === record.id, 'rail.id differs from the record id');
    return restored.rail;
  });
}

/** The `onCorruptRecord` hook, defaulting to a warning: a skipped record is never silent. */
export function corruptionReporter(options: StorageOptions | undefined): (error: CorruptRecordError) => void {
  return options?.onCorruptRecord ?? ((error) => console.warn(`warpfold storage: ${error.message}`));
}

export function checkExpectedVersion(expected: unknown): number | undefined {
  if (expected === undefined) return undefined;
  if (!Number.isSafeInteger(expected) || (expected as number) < 0) throw new StorageInputError('options.expectedVersion', 'must be a non-negative integer');
  return expected as number;
}

/** A decoded record, or undefined after reporting why it could not be read: corrupt records are skipped, never fatal. */
export function usableRecord<T>(decoded: T | CorruptRecordError, report: (error: CorruptRecordError) => unknown): T | undefined {
  if (!(decoded instanceof CorruptRecordError)) return decoded;
  report(decoded);
  return undefined;
}
