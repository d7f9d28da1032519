import type { Dialect, ProviderMessage } from '../messages/types.ts';

/** Every file shape `readTranscript` recognises. */
export type TranscriptFormat =
  | 'claude-code-jsonl'
  | 'codex-rollout-jsonl'
  | 'gemini-cli-json'
  | 'gemini-cli-jsonl'
  | 'openai-messages'
  | 'anthropic-messages'
  | 'gemini-contents'
  | 'openai-responses-input'
  | 'ai-sdk-messages'
  | 'benchmark-session';

/** What was wrong with one line (or array element) that the reader skipped. */
export type TranscriptIssueKind =
  /** The line is not JSON (cut, truncated, or not JSON at all). */
  | 'unparseable'
  /** JSON, but a record type the reader does not know. */
  | 'unknown-record'
  /** A known record type whose fields are not what the format promises. */
  | 'invalid-record';

export interface TranscriptIssue {
  /** 1-based line number in a JSONL file; 0 inside one JSON document (the detail names the element). */
  readonly line: number;
  readonly kind: TranscriptIssueKind;
  /** The record type as written, when there is one. */
  readonly recordType?: string;
  readonly detail: string;
}

/** Token counts a CLI recorded for its latest model call, as the provider reported them. */
export interface RecordedUsage {
  /** Fresh (uncached) input tokens. */
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
  /** Everything the model read: fresh + cache reads + cache writes. Pass as `measuredInputTokens`. */
  readonly measuredInputTokens: number;
}

/** One model call as the file records it: its usage, counted once however many lines carry it. */
export interface RecordedCall extends RecordedUsage {
  readonly model?: string;
  /** Of `cacheWriteTokens`, those written with a 1-hour lifetime (Anthropic's `cache_creation`); 0 when not split. */
  readonly cacheWriteOneHourTokens: number;
  /**
   * Which model turn of `messages` the call wrote: 0 for the first assistant (Gemini `model`)
   * message. Its prompt was the history before that message. Absent when the file does not tell.
   */
  readonly turn?: number;
}

/** Session facts a CLI file carries besides its messages. */
export interface TranscriptMetadata {
  readonly sessionId?: string;
  readonly cwd?: string;
  readonly model?: string;
  readonly cliVersion?: string;
  /** The latest usage the file records, when it records any. */
  readonly lastUsage?: RecordedUsage;
  /** Every model call whose usage the file records, in order; absent or empty when it records none. */
  readonly recordedCalls?: readonly RecordedCall[];
}

export interface TranscriptReadResult {
  readonly format: TranscriptFormat;
  /** The dialect of `messages`: what `FoldSession` will read them as. */
  readonly dialect: Dialect;
  readonly messages: ProviderMessage[];
  readonly issues: TranscriptIssue[];
  readonly metadata: TranscriptMetadata;
}

export interface ReadTranscriptOptions {
  /** A file name (or path) helps tell formats apart: `rollout-*.jsonl`, `session-*.json(l)`, `<uuid>.jsonl`. */
  readonly fileName?: string;
}
