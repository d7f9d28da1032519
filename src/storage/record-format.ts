import type { Episode } from '../episodes/types.ts';
import { restoreTaskRail } from '../task-rail/restore-task-rail.ts';
import { serializeTaskRail, type SerializedTaskRail } from '../task-rail/serialized-task-rail.ts';
import type { TaskRail } from '../task-rail/types.ts';
import { CorruptRecordError, StorageInputError, type RecordKind } from './storage-errors.ts';
import type { JsonValue, StorageOptions } from './storage-types.ts';
import { isRecord } from '../text/is-record.ts';
import {
  arrayOf,
  finite,
  integer,
  invalid,
  nonEmptyString,
  oneOf,
  optional,
  record,
  reject,
  string,
  validate,
} from '../validation/check.ts';
import { ValidationError } from '../validation/validation-error.ts';

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

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The fields indexes and ordering read; a record that passes can be indexed and sorted safely. */
const episodeShape = record({
  id: nonEmptyString,
  sessionId: string,
  request: string,
  outcome: oneOf(['succeeded', 'failed', 'abandoned', 'open']),
  files: arrayOf(record({ path: string, how: oneOf(['read', 'edited', 'created']) })),
  conclusions: arrayOf(
    record({
      kind: oneOf(['verdict', 'hazard', 'answer']),
      text: string,
      messageIndex: integer(0),
      paths: arrayOf(string),
    }),
  ),
  span: record({
    startIndex: integer(0),
    endIndex: integer(0),
    startedAt: optional(finite()),
    endedAt: optional(finite()),
  }),
});

/** The episode itself, every field it holds kept, once its shape is checked. */
function checkEpisode(value: unknown, path = 'episode'): Episode {
  episodeShape(value, path);
  return value as Episode;
}

/** The episode when `value` has an episode's shape, else undefined. */
export function checkEpisodeShape(value: unknown): Episode | undefined {
  try {
    return checkEpisode(value);
  } catch (error) {
    if (error instanceof ValidationError) return undefined;
    throw error;
  }
}

/** JSON text of a value, or a typed refusal naming the field; nothing half-converted reaches a backend. */
export function jsonText(value: unknown, field: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new StorageInputError(
      field,
      `is not JSON-serializable (${error instanceof Error ? error.message : String(error)})`,
    );
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
  const parsed: unknown = JSON.parse(jsonText(episode, 'episode'));
  validate(
    () => checkEpisode(parsed),
    (error) => new StorageInputError(error.field, error.problem),
  );
  const record: EpisodeRecord = { recordVersion: STORAGE_RECORD_VERSION, kind: 'episode', id, episode };
  return JSON.stringify(record);
}

/** `stateText` comes from `jsonText(state, 'state')`, worked out once before the store's transaction. */
export function encodeSession(id: string, version: number, stateText: string): string {
  return `{"recordVersion":${STORAGE_RECORD_VERSION},"kind":"session","id":${JSON.stringify(id)},"version":${version},"state":${stateText}}`;
}

export function encodeRail(rail: TaskRail): string {
  const restored = restoreTaskRail(serializeTaskRail(rail));
  if (!restored.ok)
    throw new StorageInputError(`rail.${restored.error.field ?? ''}`.replace(/\.$/, ''), restored.error.message);
  const record: RailRecord = {
    recordVersion: STORAGE_RECORD_VERSION,
    kind: 'rail',
    id: rail.id,
    rail: serializeTaskRail(restored.rail),
  };
  return JSON.stringify(record);
}

/** Brings a parsed record of any known version up to the current one. */
function migrate(kind: RecordKind, value: unknown): JsonObject {
  if (!isRecord(value)) reject(kind, 'a JSON object', value);
  if (value.recordVersion === undefined) {
    // version 0: the bare documents written before the stores existed
    if (kind === 'episode' && typeof value.id === 'string' && Array.isArray(value.files))
      return { recordVersion: 1, kind, id: value.id, episode: value };
    if (kind === 'rail' && typeof value.id === 'string' && Array.isArray(value.steps))
      return { recordVersion: 1, kind, id: value.id, rail: value };
    invalid('recordVersion', 'is missing, and the record is not a bare document of an earlier writer');
  }
  integer(0)(value.recordVersion, 'recordVersion');
  if (value.recordVersion !== STORAGE_RECORD_VERSION)
    invalid('recordVersion', `${String(value.recordVersion)} is not one this code migrates`);
  if (value.kind !== kind) invalid('kind', `is ${JSON.stringify(value.kind)}, expected "${kind}"`);
  return value;
}

/** Parses and migrates one record; an unreadable one becomes a `CorruptRecordError` to report, never a throw. */
function decode<T>(
  kind: RecordKind,
  key: string,
  expectedId: string | undefined,
  text: unknown,
  read: (record: JsonObject) => T,
): T | CorruptRecordError {
  if (typeof text !== 'string')
    return new CorruptRecordError(
      kind,
      key,
      'invalid-record',
      `stored value is ${text === null ? 'null' : typeof text}, not JSON text`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return new CorruptRecordError(kind, key, 'invalid-json', error instanceof Error ? error.message : String(error));
  }
  const version = isRecord(parsed) ? parsed.recordVersion : undefined;
  if (isCount(version) && version > STORAGE_RECORD_VERSION)
    return new CorruptRecordError(
      kind,
      key,
      'future-version',
      `recordVersion ${version} is newer than ${STORAGE_RECORD_VERSION}, the newest this code reads`,
    );
  try {
    const record = migrate(kind, parsed);
    const id = nonEmptyString(record.id, 'id');
    if (expectedId !== undefined && id !== expectedId) invalid('id', `is "${id}", stored under "${expectedId}"`);
    return read(record);
  } catch (error) {
    if (error instanceof ValidationError) return new CorruptRecordError(kind, key, 'invalid-record', error.message);
    throw error;
  }
}

export function decodeEpisode(
  key: string,
  expectedId: string | undefined,
  text: unknown,
): Episode | CorruptRecordError {
  return decode('episode', key, expectedId, text, (record) => {
    const episode = checkEpisode(record.episode);
    if (episode.id !== record.id) invalid('episode.id', 'differs from the record id');
    return episode;
  });
}

export function decodeSession(
  key: string,
  expectedId: string | undefined,
  text: unknown,
): SessionRecord | CorruptRecordError {
  return decode('session', key, expectedId, text, (record) => {
    integer(1)(record.version, 'version');
    if (!('state' in record)) invalid('state', 'is missing');
    return record as unknown as SessionRecord;
  });
}

export function decodeRail(key: string, expectedId: string | undefined, text: unknown): TaskRail | CorruptRecordError {
  return decode('rail', key, expectedId, text, (record) => {
    const restored = restoreTaskRail(record.rail);
    if (!restored.ok)
      throw new ValidationError(
        `rail.${restored.error.field ?? ''}`,
        restored.error.message,
        `rail.${restored.error.field ?? ''}: ${restored.error.message}`,
      );
    if (restored.rail.id !== record.id) invalid('rail.id', 'differs from the record id');
    return restored.rail;
  });
}

/** The `onCorruptRecord` hook, defaulting to a warning: a skipped record is never silent. */
export function corruptionReporter(options: StorageOptions | undefined): (error: CorruptRecordError) => void {
  return options?.onCorruptRecord ?? ((error) => console.warn(`warpfold storage: ${error.message}`));
}

export function checkExpectedVersion(expected: unknown): number | undefined {
  if (expected === undefined) return undefined;
  if (!Number.isSafeInteger(expected) || (expected as number) < 0)
    throw new StorageInputError('options.expectedVersion', 'must be a non-negative integer');
  return expected as number;
}

/** A decoded record, or undefined after reporting why it could not be read: corrupt records are skipped, never fatal. */
export function usableRecord<T>(
  decoded: T | CorruptRecordError,
  report: (error: CorruptRecordError) => unknown,
): T | undefined {
  if (!(decoded instanceof CorruptRecordError)) return decoded;
  report(decoded);
  return undefined;
}
