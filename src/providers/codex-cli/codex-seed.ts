import { detectDialect } from '../../messages/dialects/detect-dialect.ts';
import { readMessage } from '../../messages/read-message.ts';
import { ToolCallLedger } from '../../messages/tool-call-ledger.ts';
import type { CanonicalMessage, ProviderMessage } from '../../messages/types.ts';
import { ProviderInputError } from '../provider-error.ts';
import { isoTime } from '../stable-id.ts';

/** A Responses `message` item as Codex stores and injects it. */
export interface CodexMessageItem {
  readonly type: 'message';
  readonly role: 'user' | 'assistant' | 'developer';
  readonly content: ReadonlyArray<{ readonly type: 'input_text' | 'output_text'; readonly text: string }>;
}

/** A canonical row: who spoke and what, tool traffic already rendered as text. */
export interface CodexSeedRow {
  readonly role: 'user' | 'assistant' | 'developer';
  readonly text: string;
}

function callLine(call: CanonicalMessage['toolCalls'][number]): string {
  const input = typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
  return `▸ ${call.name} ${input}`;
}

/**
 * Canonical rows for a folded view (any dialect): system prompts become developer rows, tool
 * calls `▸ name {arguments}` lines of the assistant row, tool results user rows naming their
 * call. Adjacent rows of one role are joined, as one Responses message each.
 */
export function codexSeedRows(messages: readonly ProviderMessage[]): CodexSeedRow[] {
  const dialect = detectDialect(messages);
  const ledger = new ToolCallLedger();
  const rows: CodexSeedRow[] = [];
  const push = (role: CodexSeedRow['role'], text: string) => {
    if (text.trim() === '') return;
    const last = rows[rows.length - 1];
    if (last !== undefined && last.role === role) rows[rows.length - 1] = { role, text: `${last.text}\n\n${text}` };
    else rows.push({ role, text });
  };
  messages.forEach((message, index) => {
    const canonical = readMessage(message, index, dialect, ledger);
    if (canonical.role === 'system') push('developer', canonical.text);
    else if (canonical.role === 'assistant')
      push(
        'assistant',
        [canonical.text, ...canonical.toolCalls.map(callLine)].filter((piece) => piece !== '').join('\n'),
      );
    else {
      const results = canonical.toolResults.map(
        (result) => `[${result.isError ? 'error from' : 'result of'} ${result.name} ${result.callId}]\n${result.text}`,
      );
      push('user', [...results, canonical.text].filter((piece) => piece !== '').join('\n\n'));
    }
  });
  return rows;
}

/** Responses `message` items for `thread/inject_items`: `input_text` for user and developer, `output_text` for the assistant. */
export function buildCodexSeedItems(rows: readonly CodexSeedRow[]): CodexMessageItem[] {
  return rows.map((row, index) => {
    if (row.role !== 'user' && row.role !== 'assistant' && row.role !== 'developer')
      throw new ProviderInputError(
        'codex-cli',
        `rows[${index}].role`,
        `expected user, assistant or developer, got ${JSON.stringify(row.role)}`,
      );
    return {
      type: 'message',
      role: row.role,
      content: [{ type: row.role === 'assistant' ? 'output_text' : 'input_text', text: row.text }],
    };
  });
}

/** The app-server JSON-RPC request that injects the seed into a thread. */
export function codexInjectItemsRequest(options: {
  readonly id: number | string;
  readonly threadId: string;
  readonly items: readonly CodexMessageItem[];
}): Record<string, unknown> {
  return {
    id: options.id,
    method: 'thread/inject_items',
    params: { threadId: options.threadId, items: options.items },
  };
}

/** A rollout JSONL holding the seed (a `session_meta` line, then one `response_item` line per item), as Codex writes one. */
export function renderCodexRollout(options: {
  readonly sessionId: string;
  readonly cwd: string;
  readonly cliVersion?: string;
  readonly items: readonly CodexMessageItem[];
  readonly now: () => number;
}): string {
  const timestamp = isoTime(options.now);
  const lines = [
    JSON.stringify({
      timestamp,
      type: 'session_meta',
      payload: {
        id: options.sessionId,
        timestamp,
        cwd: options.cwd,
        originator: 'warpfold',
        cli_version: options.cliVersion ?? 'warpfold',
        instructions: null,
        source: 'cli',
      },
    }),
  ];
  for (const item of options.items) lines.push(JSON.stringify({ timestamp, type: 'response_item', payload: item }));
  return `${lines.join('\n')}\n`;
}
