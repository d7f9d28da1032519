import type { ProviderMessage } from '../messages/types.ts';
import { isRecord } from '../text/is-record.ts';
import { numberField, parseJsonLines, stringField, type JsonLinesResult } from './json-lines.ts';
import { contentBlocks, mergeAdjacentRoles } from './merge-adjacent.ts';
import { TranscriptFormatError } from './transcript-format-error.ts';
import type { RecordedCall, RecordedUsage, TranscriptIssue, TranscriptReadResult } from './types.ts';

/** Record types Claude Code writes that carry no conversation turn: read past without an issue. */
const CLAUDE_CODE_BOOKKEEPING = new Set([
  'summary',
  'system',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'last-prompt',
  'custom-title',
  'tag',
  'agent-name',
]);

/** The model name Claude Code gives its own notices (API errors, usage limits); never sent to the model. */
const SYNTHETIC_MODEL = '<synthetic>';

/** Usage as an Anthropic `usage` object reports it. */
export function usageFromAnthropic(usage: Record<string, unknown>): RecordedUsage {
  const inputTokens = numberField(usage, 'input_tokens');
  const cacheReadTokens = numberField(usage, 'cache_read_input_tokens');
  const cacheWriteTokens = numberField(usage, 'cache_creation_input_tokens');
  return {
    inputTokens,
    cacheReadTokens,
    cacheWriteTokens,
    outputTokens: numberField(usage, 'output_tokens'),
    measuredInputTokens: inputTokens + cacheReadTokens + cacheWriteTokens,
  };
}

/** Usage with Claude Code's split of cache writes by lifetime (`cache_creation.ephemeral_1h_input_tokens`). */
function recordedCall(usage: Record<string, unknown>, model: string | undefined, turn: number): RecordedCall {
  const creation = isRecord(usage.cache_creation) ? usage.cache_creation : {};
  return {
    ...usageFromAnthropic(usage),
    cacheWriteOneHourTokens: numberField(creation, 'ephemeral_1h_input_tokens'),
    ...(model === undefined ? {} : { model }),
    turn,
  };
}

/**
 * Reads a Claude Code session JSONL (`~/.claude/projects/<project>/<session>.jsonl`) into
 * Anthropic messages, in file order. Sidechain records, meta records (caveats) and Claude Code's
 * own `<synthetic>` notices are left out; adjacent records of one role are joined, as Claude
 * Code does before each API call. A tool result whose call is not in the file is dropped with an
 * issue, so the history stays valid for the API.
 */
export function readClaudeCodeJsonl(text: string | JsonLinesResult): TranscriptReadResult {
  const parsed = typeof text === 'string' ? parseJsonLines(text) : text;
  if (parsed.nonBlankLines === 0) throw new TranscriptFormatError('claude-code-jsonl', 0, 'the text is empty');
  if (parsed.records.length === 0)
    throw new TranscriptFormatError(
      'claude-code-jsonl',
      parsed.issues[0].line,
      `no line parses as JSON: ${parsed.issues[0].detail}`,
    );
  const issues: TranscriptIssue[] = [...parsed.issues];
  const messages: ProviderMessage[] = [];
  const seenCalls = new Set<string>();
  let known = 0;
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let model: string | undefined;
  let cliVersion: string | undefined;
  let lastUsage: RecordedUsage | undefined;
  // Claude Code writes one line per content block, each carrying the whole call's usage: one call per message id
  const calls = new Map<string, RecordedCall>();
  let assistantTurns = 0;
  let previousRole: string | undefined;

  for (const { line, value } of parsed.records) {
    const type = isRecord(value) ? stringField(value, 'type') : undefined;
    if (!isRecord(value) || type === undefined) {
      issues.push({ line, kind: 'unknown-record', detail: 'a JSON value without a string `type`' });
      continue;
    }
    if (CLAUDE_CODE_BOOKKEEPING.has(type)) {
      known++;
      continue;
    }
    if (type !== 'user' && type !== 'assistant') {
      issues.push({
        line,
        kind: 'unknown-record',
        recordType: type,
        detail: `record type ${JSON.stringify(type)} is not one Claude Code is known to write`,
      });
      continue;
    }
    known++;
    sessionId ??= stringField(value, 'sessionId');
    cwd ??= stringField(value, 'cwd');
    cliVersion = stringField(value, 'version') ?? cliVersion;
    const message = value.message;
    if (!isRecord(message) || (typeof message.content !== 'string' && !Array.isArray(message.content))) {
      issues.push({
        line,
        kind: 'invalid-record',
        recordType: type,
        detail: '`message.content` is neither a string nor a block list',
      });
      continue;
    }
    if (value.isSidechain === true || value.isMeta === true) continue;
    if (type === 'assistant') {
      if (message.model === SYNTHETIC_MODEL) continue;
      model = stringField(message, 'model') ?? model;
      if (previousRole !== 'assistant') assistantTurns++;
      previousRole = 'assistant';
      if (isRecord(message.usage)) {
        lastUsage = usageFromAnthropic(message.usage);
        const id = stringField(message, 'id') ?? `line ${line}`;
        const first = calls.get(id);
        // a later line of the same call may carry the final output count; the turn is where the call began
        calls.set(id, recordedCall(message.usage, stringField(message, 'model'), first?.turn ?? assistantTurns - 1));
      }
      for (const block of contentBlocks(message.content)) {
        if (isRecord(block) && block.type === 'tool_use' && typeof block.id === 'string') seenCalls.add(block.id);
      }
      messages.push({ role: 'assistant', content: message.content });
      continue;
    }
    let content: unknown = message.content;
    if (Array.isArray(content)) {
      const kept = content.filter((block) => {
        if (!isRecord(block) || block.type !== 'tool_result') return true;
        if (typeof block.tool_use_id === 'string' && seenCalls.has(block.tool_use_id)) return true;
        issues.push({
          line,
          kind: 'invalid-record',
          recordType: type,
          detail: `tool_result for ${JSON.stringify(block.tool_use_id)} answers no tool_use in the file; dropped`,
        });
        return false;
      });
      if (kept.length === 0) continue;
      content = kept.length === content.length ? content : kept;
    }
    previousRole = 'user';
    messages.push({ role: 'user', content });
  }
  if (known === 0)
    throw new TranscriptFormatError(
      'claude-code-jsonl',
      parsed.records[0].line,
      'no record is a Claude Code record (user, assistant, summary, system, …)',
    );
  return {
    format: 'claude-code-jsonl',
    dialect: 'anthropic',
    messages: mergeAdjacentRoles(messages, 'content'),
    issues: issues.sort((a, b) => a.line - b.line),
    metadata: { sessionId, cwd, model, cliVersion, lastUsage, recordedCalls: [...calls.values()] },
  };
}
