import type { FoldStats } from '../src/index.ts';
import type { SessionOptions } from './session-options.ts';

export const SESSION_RECORD_FORMAT = 'warpfold/edge-session';
export const SESSION_RECORD_VERSION = 1;

/**
 * What a session Durable Object saves after every successful prepare. `length` and `digest`
 * describe the raw history it covers (the commit point of the history log); `foldState` is
 * `FoldSession.snapshot()` for exactly that history.
 */
export interface SessionRecord {
  readonly format: typeof SESSION_RECORD_FORMAT;
  readonly version: typeof SESSION_RECORD_VERSION;
  readonly tenant: string;
  readonly sessionId: string;
  readonly length: number;
  readonly digest: string;
  readonly foldState: string;
  readonly options: SessionOptions;
  readonly stats: FoldStats | null;
  readonly updatedAt: number;
}

export function readSessionRecord(value: unknown): SessionRecord {
  const record = value as Partial<SessionRecord> | null;
  if (!record || record.format !== SESSION_RECORD_FORMAT)
    throw new Error('stored session record has an unknown format');
  if (record.version !== SESSION_RECORD_VERSION)
    throw new Error(`stored session record version ${String(record.version)} is not supported`);
  return record as SessionRecord;
}
