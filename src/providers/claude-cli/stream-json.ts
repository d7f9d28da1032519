import { isRecord } from '../../text/is-record.ts';
import { usageFromAnthropic } from '../../transcripts/read-claude-code.ts';
import type { RecordedUsage } from '../../transcripts/types.ts';

/** One line for `claude --print --input-format stream-json`: a user turn. */
export function claudeStreamUserLine(text: string): string {
  return `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } })}\n`;
}

/** What a host loop needs from one `--output-format stream-json` line. */
export interface ClaudeStreamEvent {
  /** `system` (with subtype `init`), `assistant`, `user`, `result`, … */
  readonly type: string;
  readonly subtype?: string;
  readonly sessionId?: string;
  /** Usage the line reports (an assistant message's, or the result's for the whole turn). */
  readonly usage?: RecordedUsage;
  /** The final text of a `result` line. */
  readonly result?: string;
  readonly isError?: boolean;
}

/** Reads one stream-json output line; null for a blank or non-JSON line (the CLI may print other text). */
export function readClaudeStreamLine(line: string): ClaudeStreamEvent | null {
  if (line.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isRecord(value) || typeof value.type !== 'string') return null;
  const usageSource = isRecord(value.usage)
    ? value.usage
    : isRecord(value.message) && isRecord(value.message.usage)
      ? value.message.usage
      : undefined;
  return {
    type: value.type,
    subtype: typeof value.subtype === 'string' ? value.subtype : undefined,
    sessionId: typeof value.session_id === 'string' ? value.session_id : undefined,
    usage: usageSource === undefined ? undefined : usageFromAnthropic(usageSource),
    result: typeof value.result === 'string' ? value.result : undefined,
    isError: typeof value.is_error === 'boolean' ? value.is_error : undefined,
  };
}
