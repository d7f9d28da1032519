import type { ProviderMessage } from '../messages/types.ts';
import { isRecord } from '../text/is-record.ts';
import { numberField, parseJsonLines, stringField, type JsonLine, type JsonLinesResult } from './json-lines.ts';
import { mergeAdjacentRoles } from './merge-adjacent.ts';
import { TranscriptFormatError } from './transcript-format-error.ts';
import type { RecordedCall, RecordedUsage, TranscriptIssue, TranscriptReadResult } from './types.ts';

/** Message record types Gemini CLI writes; only `user` and `gemini` reach the model. */
export const GEMINI_CLI_MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

/** Gemini parts from a `PartListUnion`: a string, one part, or a list of parts and strings. */
export function partsOf(content: unknown): Record<string, unknown>[] {
  if (content === undefined || content === null) return [];
  const list = Array.isArray(content) ? content : [content];
  const parts: Record<string, unknown>[] = [];
  for (const part of list) {
    if (typeof part === 'string') parts.push({ text: part });
    else if (isRecord(part)) parts.push(part);
  }
  return parts;
}

/** Usage from a Gemini CLI `tokens` summary (`input` is promptTokenCount, which includes `cached`). */
export function usageFromGeminiCliTokens(tokens: Record<string, unknown>): RecordedUsage {
  const input = numberField(tokens, 'input');
  const cached = numberField(tokens, 'cached');
  return {
    inputTokens: input - cached,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    outputTokens: numberField(tokens, 'output'),
    measuredInputTokens: input + numberField(tokens, 'tool'),
  };
}

/** One `gemini` record → the model turn, and the user turn holding its tool responses. */
function geminiTurns(record: Record<string, unknown>): ProviderMessage[] {
  const modelParts = partsOf(record.content).filter((part) => part.thought !== true);
  const responseParts: Record<string, unknown>[] = [];
  const calls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isRecord) : [];
  for (const call of calls) {
    const name = stringField(call, 'name') ?? 'tool';
    const id = stringField(call, 'id');
    modelParts.push({
      functionCall: { ...(id === undefined ? {} : { id }), name, args: isRecord(call.args) ? call.args : {} },
    });
    const result = partsOf(call.result);
    const responses = result.filter((part) => isRecord(part.functionResponse));
    if (responses.length > 0) responseParts.push(...result);
    else {
      const text = result.map((part) => (typeof part.text === 'string' ? part.text : '')).join('\n');
      const response =
        result.length === 0
          ? { error: `tool call ${stringField(call, 'status') ?? 'ended'} without a result` }
          : { output: text };
      responseParts.push({ functionResponse: { ...(id === undefined ? {} : { id }), name, response } });
    }
  }
  const turns: ProviderMessage[] = [];
  if (modelParts.length > 0) turns.push({ role: 'model', parts: modelParts });
  if (responseParts.length > 0) turns.push({ role: 'user', parts: responseParts });
  return turns;
}

interface GeminiCliRecords {
  header: Record<string, unknown>;
  records: Array<{ line: number; record: Record<string, unknown> }>;
}

/** Replays the JSONL layout as Gemini CLI loads it: header, message records (a repeated id updates in place), `$rewindTo`, `$set`. */
function replayJsonl(lines: readonly JsonLine[], issues: TranscriptIssue[]): GeminiCliRecords & { known: number } {
  let header: Record<string, unknown> = {};
  const byId = new Map<string, { line: number; record: Record<string, unknown> }>();
  let known = 0;
  for (const { line, value } of lines) {
    if (!isRecord(value)) {
      issues.push({ line, kind: 'unknown-record', detail: 'a JSON value that is not an object' });
      continue;
    }
    if (typeof value.$rewindTo === 'string') {
      known++;
      let found = false;
      for (const id of [...byId.keys()]) {
        if (id === value.$rewindTo) found = true;
        if (found) byId.delete(id);
      }
      if (!found) byId.clear();
    } else if (typeof value.id === 'string') {
      known++;
      const type = stringField(value, 'type');
      if (type === undefined || !GEMINI_CLI_MESSAGE_TYPES.has(type)) {
        issues.push({
          line,
          kind: 'unknown-record',
          recordType: type,
          detail: `message type ${JSON.stringify(type ?? null)} is not one Gemini CLI is known to write`,
        });
        continue;
      }
      byId.set(value.id, { line, record: value });
    } else if (isRecord(value.$set)) {
      known++;
      header = { ...header, ...value.$set };
    } else if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string') {
      known++;
      header = { ...header, ...value };
    } else {
      issues.push({
        line,
        kind: 'unknown-record',
        detail: `a line with keys ${JSON.stringify(Object.keys(value).slice(0, 6))}, none of a Gemini CLI record`,
      });
    }
  }
  const fromSet = Array.isArray(header.messages) ? header.messages.filter(isRecord) : [];
  const records = fromSet.length > 0 ? fromSet.map((record) => ({ line: 0, record })) : [...byId.values()];
  return { header, records, known };
}

/**
 * Reads a Gemini CLI chat recording (`~/.gemini/tmp/<project>/chats/session-*.json` or the newer
 * `.jsonl`) into Gemini contents: `user` records become user turns, `gemini` records model turns
 * with a `functionCall` per tool call, followed by a user turn with the `functionResponse`s.
 * `info`, `error` and `warning` records and thoughts never reach the model and are left out.
 */
export function readGeminiCliChat(text: string | JsonLinesResult): TranscriptReadResult {
  const trimmed = typeof text === 'string' ? text.trim() : undefined;
  if (trimmed === '') throw new TranscriptFormatError('gemini-cli', 0, 'the text is empty');
  let whole: unknown;
  let isJson = false;
  if (trimmed?.startsWith('{')) {
    try {
      whole = JSON.parse(trimmed);
      isJson = isRecord(whole) && Array.isArray(whole.messages);
    } catch {
      isJson = false;
    }
  }
  const issues: TranscriptIssue[] = [];
  let header: Record<string, unknown>;
  let records: Array<{ line: number; record: Record<string, unknown> }>;
  if (isJson) {
    header = whole as Record<string, unknown>;
    records = [];
    (header.messages as unknown[]).forEach((record, index) => {
      if (isRecord(record) && GEMINI_CLI_MESSAGE_TYPES.has(record.type as string)) records.push({ line: 0, record });
      else
        issues.push({
          line: 0,
          kind: isRecord(record) ? 'unknown-record' : 'invalid-record',
          recordType: isRecord(record) ? stringField(record, 'type') : undefined,
          detail: `messages[${index}] is not a Gemini CLI message record`,
        });
    });
  } else {
    const parsed = typeof text === 'string' ? parseJsonLines(text) : text;
    if (parsed.records.length === 0)
      throw new TranscriptFormatError(
        'gemini-cli-jsonl',
        parsed.issues[0].line,
        `no line parses as JSON: ${parsed.issues[0].detail}`,
      );
    issues.push(...parsed.issues);
    const replayed = replayJsonl(parsed.records, issues);
    if (replayed.known === 0)
      throw new TranscriptFormatError(
        'gemini-cli-jsonl',
        parsed.records[0].line,
        'no line is a Gemini CLI record (metadata, message, $set, $rewindTo)',
      );
    header = replayed.header;
    records = replayed.records;
  }
  const messages: ProviderMessage[] = [];
  let model: string | undefined;
  let lastUsage: RecordedUsage | undefined;
  const recordedCalls: RecordedCall[] = [];
  let modelTurns = 0;
  for (const { record } of records) {
    if (record.type === 'user') {
      const parts = partsOf(record.content);
      if (parts.length > 0) messages.push({ role: 'user', parts });
    } else if (record.type === 'gemini') {
      model = stringField(record, 'model') ?? model;
      const turns = geminiTurns(record);
      // a model turn right after another merges with it: the call belongs to the turn it joins
      const startsTurn = turns[0]?.role === 'model' && messages[messages.length - 1]?.role !== 'model';
      if (startsTurn) modelTurns++;
      if (isRecord(record.tokens)) {
        lastUsage = usageFromGeminiCliTokens(record.tokens);
        recordedCalls.push({
          ...lastUsage,
          cacheWriteOneHourTokens: 0,
          ...(model === undefined ? {} : { model }),
          ...(modelTurns > 0 ? { turn: modelTurns - 1 } : {}),
        });
      }
      messages.push(...turns);
    }
  }
  return {
    format: isJson ? 'gemini-cli-json' : 'gemini-cli-jsonl',
    dialect: 'gemini',
    messages: mergeAdjacentRoles(messages, 'parts'),
    issues: issues.sort((a, b) => a.line - b.line),
    metadata: { sessionId: stringField(header, 'sessionId'), model, lastUsage, recordedCalls },
  };
}
