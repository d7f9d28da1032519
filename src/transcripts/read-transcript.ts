import { isRecord } from '../text/is-record.ts';
import { parseJsonLines, type JsonLinesResult } from './json-lines.ts';
import { readClaudeCodeJsonl } from './read-claude-code.ts';
import { CODEX_LINE_TYPES, CODEX_MESSAGE_ITEMS, readCodexRolloutJsonl } from './read-codex-rollout.ts';
import { GEMINI_CLI_MESSAGE_TYPES, readGeminiCliChat } from './read-gemini-cli.ts';
import { readMessageArray } from './read-message-array.ts';
import { TranscriptFormatError } from './transcript-format-error.ts';
import type { ReadTranscriptOptions, TranscriptReadResult } from './types.ts';

type JsonlFormat = 'claude' | 'codex' | 'gemini';

/** Records looked at to decide a JSONL format; every CLI says who it is within its first lines. */
const DETECTION_RECORDS = 50;
/** A file name that matches a CLI's naming counts as this many records voting for it. */
const FILE_NAME_VOTES = 3;

const CLAUDE_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'last-prompt',
]);

function voteOf(value: unknown): JsonlFormat | null {
  if (!isRecord(value)) return null;
  const type = typeof value.type === 'string' ? value.type : undefined;
  if (type !== undefined && CODEX_LINE_TYPES.has(type) && isRecord(value.payload)) return 'codex';
  if (
    typeof value.record_type === 'string' ||
    (type !== undefined && CODEX_MESSAGE_ITEMS.has(type) && type !== 'message')
  )
    return 'codex';
  if (type === 'message' && Array.isArray(value.content) && typeof value.role === 'string') return 'codex';
  if (isRecord(value.$set) || typeof value.$rewindTo === 'string') return 'gemini';
  if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string') return 'gemini';
  if (
    typeof value.id === 'string' &&
    type !== undefined &&
    GEMINI_CLI_MESSAGE_TYPES.has(type) &&
    'content' in value &&
    !('uuid' in value)
  )
    return 'gemini';
  if (
    type !== undefined &&
    CLAUDE_TYPES.has(type) &&
    ('uuid' in value || 'sessionId' in value || 'leafUuid' in value || 'messageId' in value)
  )
    return 'claude';
  return null;
}

function fileNameVote(fileName: string | undefined): JsonlFormat | null {
  if (fileName === undefined) return null;
  const base = fileName.split(/[\\/]/).pop() ?? '';
  if (/^rollout-.*\.jsonl$/.test(base)) return 'codex';
  if (/^session-.*\.jsonl?$/.test(base)) return 'gemini';
  if (/^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|agent-[0-9a-z]+)\.jsonl$/i.test(base))
    return 'claude';
  return null;
}

/**
 * Reads any transcript warpfold knows into provider-shaped messages: Claude Code session JSONL,
 * Codex CLI rollout JSONL, Gemini CLI chat files (JSON or JSONL), plain OpenAI / Anthropic /
 * Gemini message arrays and the benchmark's `{ messages }` files. Damaged lines and unknown
 * record types are listed in `issues` with their line numbers; a `TranscriptFormatError` is
 * thrown only when nothing in the text is readable.
 */
export function readTranscript(text: string, options: ReadTranscriptOptions = {}): TranscriptReadResult {
  if (typeof text !== 'string')
    throw new TranscriptFormatError(
      'unknown',
      0,
      `expected the file's text as a string, got ${text === null ? 'null' : typeof text}`,
    );
  const trimmed = text.trim();
  if (trimmed === '') throw new TranscriptFormatError('unknown', 0, 'the text is empty');
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let whole: unknown;
    let parsedWhole = false;
    try {
      whole = JSON.parse(trimmed);
      parsedWhole = true;
    } catch {
      // Not one JSON document: JSONL, read line by line below.
    }
    if (parsedWhole) {
      if (Array.isArray(whole)) return readMessageArray(whole);
      if (
        isRecord(whole) &&
        Array.isArray(whole.messages) &&
        typeof whole.sessionId === 'string' &&
        (typeof whole.projectHash === 'string' || typeof whole.startTime === 'string')
      )
        return readGeminiCliChat(trimmed);
      if (isRecord(whole) && (Array.isArray(whole.messages) || Array.isArray(whole.contents)))
        return readMessageArray(whole);
      // A one-line JSONL file parses whole too; fall through to the JSONL readers.
    }
  }
  return readTranscriptLines(parseJsonLines(text), options);
}

/**
 * `readTranscript` for a JSONL file already split into parsed lines (`createJsonLinesCollector`),
 * so a large file can be streamed line by line instead of held whole as one string.
 */
export function readTranscriptLines(
  parsed: JsonLinesResult,
  options: ReadTranscriptOptions = {},
): TranscriptReadResult {
  if (parsed.nonBlankLines === 0) throw new TranscriptFormatError('unknown', 0, 'the text is empty');
  if (parsed.records.length === 0)
    throw new TranscriptFormatError(
      'unknown',
      parsed.issues[0].line,
      `no line parses as JSON: ${parsed.issues[0].detail}`,
    );
  const votes: Record<JsonlFormat, number> = { claude: 0, codex: 0, gemini: 0 };
  for (const { value } of parsed.records.slice(0, DETECTION_RECORDS)) {
    const vote = voteOf(value);
    if (vote !== null) votes[vote]++;
  }
  const byName = fileNameVote(options.fileName);
  if (byName !== null) votes[byName] += FILE_NAME_VOTES;
  const best = (Object.keys(votes) as JsonlFormat[]).reduce((a, b) => (votes[b] > votes[a] ? b : a));
  if (votes[best] === 0) {
    const first = parsed.records[0];
    const keys = isRecord(first.value) ? JSON.stringify(Object.keys(first.value).slice(0, 8)) : typeof first.value;
    throw new TranscriptFormatError(
      'unknown',
      first.line,
      `no known transcript format: the first record has ${keys}; expected Claude Code, Codex CLI or Gemini CLI records, or a message array`,
    );
  }
  if (best === 'claude') return readClaudeCodeJsonl(parsed);
  if (best === 'codex') return readCodexRolloutJsonl(parsed);
  return readGeminiCliChat(parsed);
}
