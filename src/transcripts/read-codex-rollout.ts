import type { ProviderMessage } from '../messages/types.ts';
import { isRecord } from '../text/is-record.ts';
import { numberField, parseJsonLines, stringField, type JsonLinesResult } from './json-lines.ts';
import { TranscriptFormatError } from './transcript-format-error.ts';
import type { RecordedCall, RecordedUsage, TranscriptIssue, TranscriptReadResult } from './types.ts';

/** Top-level rollout line types (`{ timestamp, type, payload }`). */
export const CODEX_LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/** Response items that carry nothing the chat history can hold; read past without an issue. */
const CODEX_SKIPPED_ITEMS = new Set([
  'web_search_call',
  'image_generation_call',
  'ghost_snapshot',
  'compaction',
  'compaction_summary',
  'other',
]);

/** Response item types the reader turns into messages. */
export const CODEX_MESSAGE_ITEMS = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
]);

/** Text of a `message` item's content parts (`input_text`, `output_text`, …); images become a marker. */
function itemText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const pieces: string[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string') pieces.push(part.text);
    else if (typeof part.type === 'string') pieces.push(`[${part.type}]`);
  }
  return pieces.join('\n');
}

/** A tool output as text: Codex writes a string, or content items, or `{ content, success }`. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return itemText(output);
  if (isRecord(output)) {
    if (typeof output.content === 'string') return output.content;
    if (Array.isArray(output.content)) return itemText(output.content);
  }
  return JSON.stringify(output ?? null);
}

/** Usage from a `token_count` event's `info.last_token_usage` (OpenAI counts cached tokens inside input). */
function usageFromTokenCount(info: Record<string, unknown>): RecordedUsage | undefined {
  const last = info.last_token_usage;
  if (!isRecord(last)) return undefined;
  const input = numberField(last, 'input_tokens');
  const cached = numberField(last, 'cached_input_tokens');
  return {
    inputTokens: input - cached,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    outputTokens: numberField(last, 'output_tokens'),
    measuredInputTokens: input,
  };
}

/** Builds OpenAI chat messages from response items, keeping calls on the assistant message they follow. */
class ChatBuilder {
  messages: ProviderMessage[] = [];
  private reasoning: string[] = [];
  private openAssistant: Record<string, unknown> | null = null;

  reset(): void {
    this.messages = [];
    this.reasoning = [];
    this.openAssistant = null;
  }

  addItem(item: Record<string, unknown>, line: number, issues: TranscriptIssue[]): void {
    const type = item.type as string;
    if (type === 'message') {
      const role = stringField(item, 'role');
      if (role === undefined) {
        issues.push({ line, kind: 'invalid-record', recordType: type, detail: 'a message item without a role' });
        return;
      }
      const text = itemText(item.content);
      if (role === 'assistant') {
        const message: Record<string, unknown> = { role: 'assistant', content: text };
        this.takeReasoning(message);
        this.messages.push(message);
        this.openAssistant = message;
      } else {
        this.messages.push({ role, content: text });
        this.openAssistant = null;
      }
    } else if (type === 'reasoning') {
      const summary = Array.isArray(item.summary) ? itemText(item.summary) : '';
      const content = Array.isArray(item.content) ? itemText(item.content) : '';
      const text = content !== '' ? content : summary;
      if (text !== '') this.reasoning.push(text);
    } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
      const callId = stringField(item, 'call_id') ?? stringField(item, 'id');
      if (callId === undefined) {
        issues.push({ line, kind: 'invalid-record', recordType: type, detail: 'a tool call without `call_id`' });
        return;
      }
      const name = type === 'local_shell_call' ? 'local_shell' : (stringField(item, 'name') ?? type);
      const args =
        type === 'function_call'
          ? typeof item.arguments === 'string'
            ? item.arguments
            : JSON.stringify(item.arguments ?? {})
          : type === 'custom_tool_call'
            ? JSON.stringify({ input: item.input ?? '' })
            : JSON.stringify(item.action ?? {});
      const assistant = this.assistantForCalls();
      (assistant.tool_calls as unknown[]).push({ id: callId, type: 'function', function: { name, arguments: args } });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const callId = stringField(item, 'call_id');
      if (callId === undefined) {
        issues.push({ line, kind: 'invalid-record', recordType: type, detail: 'a tool output without `call_id`' });
        return;
      }
      this.messages.push({ role: 'tool', tool_call_id: callId, content: outputText(item.output) });
    }
  }

  private assistantForCalls(): Record<string, unknown> {
    const last = this.messages[this.messages.length - 1];
    if (this.openAssistant !== null && last === this.openAssistant) {
      this.openAssistant.tool_calls ??= [];
      return this.openAssistant;
    }
    const message: Record<string, unknown> = { role: 'assistant', content: null, tool_calls: [] };
    this.takeReasoning(message);
    this.messages.push(message);
    this.openAssistant = message;
    return message;
  }

  private takeReasoning(message: Record<string, unknown>): void {
    if (this.reasoning.length === 0) return;
    message.reasoning_content = this.reasoning.join('\n');
    this.reasoning = [];
  }
}

/**
 * Reads a Codex CLI rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`) into OpenAI chat
 * messages: `message` items become user / assistant / developer messages, calls
 * (`function_call`, `custom_tool_call`, `local_shell_call`) become `tool_calls` on the assistant
 * message they follow, outputs become `tool` messages, reasoning summaries `reasoning_content`.
 * A `compacted` line replaces what came before, as Codex does. Also reads the older rollout
 * layout (bare items after an `{ id, timestamp, instructions }` line).
 */
export function readCodexRolloutJsonl(text: string | JsonLinesResult): TranscriptReadResult {
  const parsed = typeof text === 'string' ? parseJsonLines(text) : text;
  if (parsed.nonBlankLines === 0) throw new TranscriptFormatError('codex-rollout-jsonl', 0, 'the text is empty');
  if (parsed.records.length === 0)
    throw new TranscriptFormatError(
      'codex-rollout-jsonl',
      parsed.issues[0].line,
      `no line parses as JSON: ${parsed.issues[0].detail}`,
    );
  const issues: TranscriptIssue[] = [...parsed.issues];
  const chat = new ChatBuilder();
  let known = 0;
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let model: string | undefined;
  let cliVersion: string | undefined;
  const recordedCalls: RecordedCall[] = [];
  let previousTotal: number | undefined;
  let lastUsage: RecordedUsage | undefined;

  const readItem = (item: Record<string, unknown>, line: number): boolean => {
    const type = stringField(item, 'type');
    if (type !== undefined && CODEX_MESSAGE_ITEMS.has(type)) {
      chat.addItem(item, line, issues);
      return true;
    }
    if (type !== undefined && CODEX_SKIPPED_ITEMS.has(type)) return true;
    issues.push({
      line,
      kind: 'unknown-record',
      recordType: type,
      detail: `response item type ${JSON.stringify(type ?? null)} is not one Codex is known to write`,
    });
    return false;
  };

  for (const { line, value } of parsed.records) {
    if (!isRecord(value)) {
      issues.push({ line, kind: 'unknown-record', detail: 'a JSON value that is not an object' });
      continue;
    }
    const type = stringField(value, 'type');
    const payload = value.payload;
    if (type !== undefined && CODEX_LINE_TYPES.has(type) && isRecord(payload)) {
      known++;
      if (type === 'session_meta') {
        sessionId = stringField(payload, 'id') ?? sessionId;
        cwd = stringField(payload, 'cwd') ?? cwd;
        cliVersion = stringField(payload, 'cli_version') ?? cliVersion;
      } else if (type === 'turn_context') {
        model = stringField(payload, 'model') ?? model;
        cwd = stringField(payload, 'cwd') ?? cwd;
      } else if (type === 'event_msg') {
        if (payload.type === 'token_count' && isRecord(payload.info)) {
          const usage = usageFromTokenCount(payload.info);
          lastUsage = usage ?? lastUsage;
          // Codex repeats a token_count event without a new call: the running total tells
          const total = isRecord(payload.info.total_token_usage)
            ? numberField(payload.info.total_token_usage, 'total_tokens')
            : undefined;
          if (usage !== undefined && (total === undefined || total !== previousTotal))
            recordedCalls.push({ ...usage, cacheWriteOneHourTokens: 0, ...(model === undefined ? {} : { model }) });
          previousTotal = total ?? previousTotal;
        }
      } else if (type === 'compacted') {
        chat.reset();
        if (Array.isArray(payload.replacement_history)) {
          for (const item of payload.replacement_history) if (isRecord(item)) readItem(item, line);
        } else if (typeof payload.message === 'string') {
          chat.messages.push({ role: 'user', content: payload.message });
        }
      } else {
        readItem(payload, line);
      }
      continue;
    }
    // Older layout: a header line, bare response items and `record_type` state lines.
    if (typeof value.record_type === 'string') {
      known++;
      continue;
    }
    if (type === undefined && typeof value.id === 'string' && typeof value.timestamp === 'string') {
      known++;
      sessionId ??= value.id;
      continue;
    }
    if (type !== undefined && (CODEX_MESSAGE_ITEMS.has(type) || CODEX_SKIPPED_ITEMS.has(type))) {
      known++;
      readItem(value, line);
      continue;
    }
    issues.push({
      line,
      kind: 'unknown-record',
      recordType: type,
      detail: `line type ${JSON.stringify(type ?? null)} is not one Codex is known to write`,
    });
  }
  if (known === 0)
    throw new TranscriptFormatError(
      'codex-rollout-jsonl',
      parsed.records[0].line,
      'no line is a Codex rollout line (session_meta, response_item, event_msg, turn_context, compacted)',
    );
  return {
    format: 'codex-rollout-jsonl',
    dialect: 'openai',
    messages: chat.messages,
    issues: issues.sort((a, b) => a.line - b.line),
    metadata: { sessionId, cwd, model, cliVersion, lastUsage, recordedCalls },
  };
}
