import type { ProviderMessage } from '../../messages/types.ts';
import { SYNTHETIC_MARKER } from '../../messages/read-message.ts';
import { mergeAdjacentRoles } from '../../transcripts/merge-adjacent.ts';
import { ProviderInputError } from '../provider-error.ts';
import { isoTime, stableId, stableUuid } from '../stable-id.ts';

export interface ClaudeCodeSessionOptions {
  /** Anthropic-dialect messages: a folded view, or rows read with `readClaudeCodeJsonl`. */
  readonly messages: readonly ProviderMessage[];
  readonly sessionId: string;
  readonly cwd: string;
  /** Claude Code version written on each record; resume does not check it. */
  readonly version?: string;
  readonly gitBranch?: string;
  /** Model written on assistant records. */
  readonly model?: string;
  /** Epoch milliseconds; records are stamped one millisecond apart from it. */
  readonly now: () => number;
}

export interface ClaudeCodeSession {
  /** The JSONL text, newline-terminated. */
  readonly text: string;
  /** The rows as written (adjacent same-role messages joined, `{ role, content }` only): what the file reads back as. */
  readonly rows: ProviderMessage[];
  /** Uuid of the last message record: the leaf `--resume` continues from. */
  readonly leafUuid: string | null;
}

/** Claude Code's project directory for a working directory: every non-alphanumeric character becomes `-`. */
export function claudeProjectDirectoryName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/** `<claudeHome>/projects/<project directory>/<sessionId>.jsonl`, with `/` separators. */
export function claudeSessionFilePath(options: {
  readonly claudeHome: string;
  readonly cwd: string;
  readonly sessionId: string;
}): string {
  return `${options.claudeHome.replace(/\/+$/, '')}/projects/${claudeProjectDirectoryName(options.cwd)}/${options.sessionId}.jsonl`;
}

/** Rows as a Claude Code session holds them: `{ role, content }`, adjacent same-role messages joined. */
export function claudeCodeRows(messages: readonly ProviderMessage[]): ProviderMessage[] {
  return mergeAdjacentRoles(
    messages.map((message, index) => {
      if (message === null || typeof message !== 'object' || (message.role !== 'user' && message.role !== 'assistant'))
        throw new ProviderInputError(
          'claude-cli',
          `messages[${index}].role`,
          `expected 'user' or 'assistant', got ${JSON.stringify((message as { role?: unknown } | null)?.role)}`,
        );
      if (typeof message.content !== 'string' && !Array.isArray(message.content))
        throw new ProviderInputError('claude-cli', `messages[${index}].content`, 'expected a string or a block list');
      return { role: message.role, content: message.content };
    }),
    'content',
  );
}

/** The user's latest own words: the last user text that is neither a tool result nor a warpfold fold. */
function lastPrompt(rows: readonly ProviderMessage[]): string | null {
  for (let index = rows.length - 1; index >= 0; index--) {
    const row = rows[index];
    if (row.role !== 'user') continue;
    const texts =
      typeof row.content === 'string'
        ? [row.content]
        : (row.content as Array<{ type?: string; text?: unknown }>)
            .filter((block) => block.type === 'text' && typeof block.text === 'string')
            .map((block) => block.text as string);
    // The last text block: an interruption notice and the prompt typed after it arrive as two blocks.
    const text = texts.filter((piece) => piece.trim() !== '').at(-1);
    if (text !== undefined && !text.startsWith(SYNTHETIC_MARKER)) return text;
  }
  return null;
}

function stopReason(content: unknown): string {
  const blocks = Array.isArray(content) ? (content as Array<{ type?: string }>) : [];
  return blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

/**
 * A Claude Code session JSONL holding `messages`: user and assistant records linked by `uuid` /
 * `parentUuid` in one chain, each with the session id and cwd, closed by a `last-prompt` record.
 * `claude --resume <sessionId>` continues from its last record. Pure: uuids derive from the
 * session id and the records, time from `now`.
 */
export function buildClaudeCodeSession(options: ClaudeCodeSessionOptions): ClaudeCodeSession {
  if (typeof options.sessionId !== 'string' || options.sessionId === '')
    throw new ProviderInputError('claude-cli', 'sessionId', 'expected a non-empty string');
  if (typeof options.cwd !== 'string' || options.cwd === '')
    throw new ProviderInputError('claude-cli', 'cwd', 'expected a non-empty string');
  const rows = claudeCodeRows(options.messages);
  const start = options.now();
  const base = {
    isSidechain: false,
    userType: 'external',
    cwd: options.cwd,
    sessionId: options.sessionId,
    version: options.version ?? 'warpfold',
    gitBranch: options.gitBranch ?? '',
  };
  const lines: string[] = [];
  let parentUuid: string | null = null;
  rows.forEach((row, index) => {
    const body = JSON.stringify(row.content);
    const uuid = stableUuid(options.sessionId, index, row.role as string, body);
    const timestamp = isoTime(() => start + index);
    const record =
      row.role === 'user'
        ? { parentUuid, ...base, type: 'user', message: { role: 'user', content: row.content }, uuid, timestamp }
        : {
            parentUuid,
            ...base,
            type: 'assistant',
            message: {
              model: options.model ?? 'warpfold-fold',
              id: `msg_warpfold_${stableId(options.sessionId, index, body)}`,
              type: 'message',
              role: 'assistant',
              content: row.content,
              stop_reason: stopReason(row.content),
              stop_sequence: null,
              usage: { input_tokens: 0, output_tokens: 0 },
            },
            uuid,
            timestamp,
          };
    lines.push(JSON.stringify(record));
    parentUuid = uuid;
  });
  const prompt = lastPrompt(rows);
  if (prompt !== null)
    lines.push(JSON.stringify({ type: 'last-prompt', lastPrompt: prompt, sessionId: options.sessionId }));
  return { text: lines.length === 0 ? '' : `${lines.join('\n')}\n`, rows, leafUuid: parentUuid };
}
