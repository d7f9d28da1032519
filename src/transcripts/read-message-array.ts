import { detectDialect } from '../messages/dialects/detect-dialect.ts';
import type { ProviderMessage } from '../messages/types.ts';
import { isRecord } from '../text/is-record.ts';
import { TranscriptFormatError } from './transcript-format-error.ts';
import type { TranscriptFormat, TranscriptIssue, TranscriptReadResult } from './types.ts';

const FORMAT_OF_DIALECT = {
  openai: 'openai-messages',
  anthropic: 'anthropic-messages',
  gemini: 'gemini-contents',
  'openai-responses': 'openai-responses-input',
  'ai-sdk': 'ai-sdk-messages',
} as const;

/**
 * Reads a provider message list (OpenAI `messages`, Anthropic `messages`, Gemini `contents`) or
 * the benchmark's `{ messages }` session file. Elements that are not messages (no string
 * `role`) are dropped with an issue naming their index.
 */
export function readMessageArray(value: unknown): TranscriptReadResult {
  let list: unknown[];
  let format: TranscriptFormat | undefined;
  let sessionId: string | undefined;
  let model: string | undefined;
  if (Array.isArray(value)) list = value;
  else if (isRecord(value) && Array.isArray(value.messages)) {
    list = value.messages;
    format = 'benchmark-session';
    sessionId = typeof value.id === 'string' ? value.id : undefined;
    model = typeof value.model === 'string' ? value.model : undefined;
  } else if (isRecord(value) && Array.isArray(value.contents)) {
    list = value.contents;
    format = 'gemini-contents';
  } else
    throw new TranscriptFormatError(
      'messages',
      0,
      'expected an array of messages, `{ messages: [...] }` or `{ contents: [...] }`',
    );
  const issues: TranscriptIssue[] = [];
  const messages: ProviderMessage[] = [];
  list.forEach((message, index) => {
    // Responses input items other than messages carry a `type` instead of a role
    if (isRecord(message) && (typeof message.role === 'string' || typeof message.type === 'string'))
      messages.push(message);
    else
      issues.push({
        line: 0,
        kind: 'invalid-record',
        detail: `element ${index} is not a message (an object with a string \`role\`)`,
      });
  });
  if (list.length > 0 && messages.length === 0)
    throw new TranscriptFormatError(
      format ?? 'messages',
      0,
      'no element is a message (an object with a string `role`)',
    );
  const dialect = detectDialect(messages);
  return { format: format ?? FORMAT_OF_DIALECT[dialect], dialect, messages, issues, metadata: { sessionId, model } };
}
