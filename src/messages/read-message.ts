import { FoldInputError } from './fold-input-error.ts';
import { checkValueShape } from './value-guard.ts';
import { newPayload, readBlockPayload, type Payload } from './block-payload.ts';
import { readModelMessage } from './read-model-message.ts';
import { readResponsesItem } from './read-responses-item.ts';
import type { CanonicalMessage, CanonicalRole, Dialect, ProviderMessage, ToolCall, ToolResult } from './types.ts';
import type { ToolCallLedger } from './tool-call-ledger.ts';
import { exactSize } from '../text/exact-size.ts';
import { isRecord } from '../text/is-record.ts';

/** Text that warpfold itself wrote; never a turn boundary when a host feeds a view back. */
export const SYNTHETIC_MARKER = '[warpfold';

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function stringifyValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/** Text of an OpenAI / Anthropic content value; non-text parts become short placeholders and are counted in `payload`. */
function contentText(content: unknown, index: number, where: string, dialect: Dialect, payload: Payload): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw new FoldInputError(index, `${where} must be a string, an array of blocks or null, got ${typeof content}`);
  const pieces: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') pieces.push(block);
    else if (isRecord(block) && typeof block.text === 'string') pieces.push(block.text);
    else if (isRecord(block) && typeof block.type === 'string') {
      pieces.push(`[${block.type}]`);
      readBlockPayload(block, dialect, payload);
    } else throw new FoldInputError(index, `${where} holds a block that is neither text nor a typed block`);
  }
  return pieces.join('\n');
}

function roleOf(raw: unknown, dialect: Dialect, index: number): CanonicalRole {
  switch (raw) {
    case 'system':
    case 'developer':
      return 'system';
    case 'user':
      return 'user';
    case 'assistant':
      if (dialect === 'gemini') break;
      return 'assistant';
    case 'model':
      if (dialect !== 'gemini') break;
      return 'assistant';
    case 'tool':
    case 'function':
      if (dialect !== 'openai') break;
      return 'tool';
  }
  throw new FoldInputError(index, `unknown role ${JSON.stringify(raw)} for a ${dialect} history`);
}

interface Parts {
  text: string[];
  reasoning: string[];
  calls: ToolCall[];
  results: ToolResult[];
  payload: Payload;
}

function readOpenAi(
  message: ProviderMessage,
  role: CanonicalRole,
  index: number,
  ledger: ToolCallLedger,
  parts: Parts,
): void {
  parts.text.push(contentText(message.content, index, 'content', 'openai', parts.payload));
  if (typeof message.reasoning_content === 'string') parts.reasoning.push(message.reasoning_content);
  if (message.tool_calls !== undefined && message.tool_calls !== null) {
    if (role !== 'assistant') throw new FoldInputError(index, `tool_calls on a ${role} message`);
    if (!Array.isArray(message.tool_calls)) throw new FoldInputError(index, 'tool_calls must be an array');
    message.tool_calls.forEach((raw: unknown, n: number) => {
      const fn = isRecord(raw) ? raw.function : undefined;
      if (!isRecord(raw) || !isRecord(fn) || typeof fn.name !== 'string')
        throw new FoldInputError(index, `tool_calls[${n}] needs function.name`);
      const hasId = typeof raw.id === 'string' && raw.id !== '';
      const input = parseArguments(fn.arguments);
      if (typeof fn.arguments === 'string') checkValueShape(input, index, `tool_calls[${n}].function.arguments`);
      const call: ToolCall = { id: hasId ? (raw.id as string) : `#${index}.${n}`, name: fn.name, input };
      ledger.open(call, hasId, `${index}.${parts.calls.length}`);
      parts.calls.push(call);
    });
  }
  if (role === 'tool') {
    const callId = typeof message.tool_call_id === 'string' ? message.tool_call_id : undefined;
    const fallbackName = typeof message.name === 'string' ? message.name : undefined;
    const answered = ledger.close(callId, callId === undefined ? fallbackName : undefined);
    if (answered === undefined)
      throw new FoldInputError(
        index,
        `tool result ${JSON.stringify(callId ?? fallbackName ?? '')} answers no pending tool call`,
      );
    parts.results.push({
      callId: callId ?? `name:${answered.name}`,
      name: answered.name,
      callRef: answered.ref,
      text: parts.text.pop() ?? '',
      isError: false,
    });
  }
}

function readAnthropic(message: ProviderMessage, index: number, ledger: ToolCallLedger, parts: Parts): void {
  const content = message.content;
  if (typeof content === 'string' || content === null || content === undefined) {
    parts.text.push(content ?? '');
    return;
  }
  if (!Array.isArray(content))
    throw new FoldInputError(index, `content must be a string or an array of blocks, got ${typeof content}`);
  content.forEach((block: unknown, n: number) => {
    if (typeof block === 'string') return void parts.text.push(block);
    if (!isRecord(block)) throw new FoldInputError(index, `content[${n}] is not a block`);
    switch (block.type) {
      case 'text':
        parts.text.push(typeof block.text === 'string' ? block.text : '');
        return;
      case 'thinking':
        parts.reasoning.push(typeof block.thinking === 'string' ? block.thinking : '');
        return;
      case 'redacted_thinking':
        return;
      case 'tool_use': {
        if (typeof block.name !== 'string') throw new FoldInputError(index, `content[${n}] tool_use needs a name`);
        const hasId = typeof block.id === 'string' && block.id !== '';
        const call: ToolCall = {
          id: hasId ? (block.id as string) : `#${index}.${n}`,
          name: block.name,
          input: block.input ?? {},
        };
        ledger.open(call, hasId, `${index}.${parts.calls.length}`);
        parts.calls.push(call);
        return;
      }
      case 'tool_result': {
        const callId = typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined;
        const answered = ledger.close(callId, undefined);
        if (answered === undefined)
          throw new FoldInputError(
            index,
            `content[${n}] tool_result ${JSON.stringify(callId ?? '')} answers no pending tool_use`,
          );
        parts.results.push({
          callId: callId as string,
          name: answered.name,
          callRef: answered.ref,
          text: contentText(block.content, index, `content[${n}].content`, 'anthropic', parts.payload),
          isError: block.is_error === true,
        });
        return;
      }
      default:
        if (typeof block.text === 'string') parts.text.push(block.text);
        else {
          parts.text.push(`[${String(block.type ?? 'block')}]`);
          readBlockPayload(block, 'anthropic', parts.payload);
        }
    }
  });
}

function readGemini(message: ProviderMessage, index: number, ledger: ToolCallLedger, parts: Parts): void {
  const raw = message.parts ?? (typeof message.content === 'string' ? [{ text: message.content }] : undefined);
  if (!Array.isArray(raw)) throw new FoldInputError(index, 'a Gemini message needs a parts array');
  raw.forEach((part: unknown, n: number) => {
    if (!isRecord(part)) throw new FoldInputError(index, `parts[${n}] is not an object`);
    if (typeof part.text === 'string') {
      (part.thought === true ? parts.reasoning : parts.text).push(part.text);
    } else if (isRecord(part.functionCall)) {
      const fn = part.functionCall;
      if (typeof fn.name !== 'string') throw new FoldInputError(index, `parts[${n}].functionCall needs a name`);
      const hasId = typeof fn.id === 'string' && fn.id !== '';
      const call: ToolCall = { id: hasId ? (fn.id as string) : `#${index}.${n}`, name: fn.name, input: fn.args ?? {} };
      ledger.open(call, hasId, `${index}.${parts.calls.length}`);
      parts.calls.push(call);
    } else if (isRecord(part.functionResponse)) {
      const response = part.functionResponse;
      const callId = typeof response.id === 'string' && response.id !== '' ? response.id : undefined;
      const answered = ledger.close(callId, typeof response.name === 'string' ? response.name : undefined);
      if (answered === undefined)
        throw new FoldInputError(
          index,
          `parts[${n}].functionResponse ${JSON.stringify(callId ?? response.name ?? '')} answers no pending functionCall`,
        );
      const body = isRecord(response.response) ? response.response : {};
      const text = stringifyValue(
        body.output ?? body.result ?? body.content ?? (body.error === undefined ? response.response : body.error),
      );
      parts.results.push({
        callId: callId ?? `name:${answered.name}`,
        name: answered.name,
        callRef: answered.ref,
        text,
        isError: body.error !== undefined,
      });
    } else {
      const kind = Object.keys(part)[0] ?? 'part';
      parts.text.push(`[${kind}]`);
      readBlockPayload(part, 'gemini', parts.payload);
    }
  });
}

/** Reads one provider message into canonical form, pairing results through the ledger. */
export function readMessage(
  message: unknown,
  index: number,
  dialect: Dialect,
  ledger: ToolCallLedger,
): CanonicalMessage {
  if (!isRecord(message))
    throw new FoldInputError(
      index,
      `expected a message object, got ${message === null ? 'null' : Array.isArray(message) ? 'an array' : typeof message}`,
    );
  // every later walk (arguments, fingerprints, the host's JSON.stringify) may then recurse safely
  checkValueShape(message, index);
  if (dialect === 'openai-responses' || dialect === 'ai-sdk') {
    const reading =
      dialect === 'ai-sdk' ? readModelMessage(message, index, ledger) : readResponsesItem(message, index, ledger);
    return canonicalMessage(index, reading.role, reading.sourceRole, reading);
  }
  const role = roleOf(message.role, dialect, index);
  const parts: Parts = { text: [], reasoning: [], calls: [], results: [], payload: newPayload() };
  if (dialect === 'openai') readOpenAi(message, role, index, ledger, parts);
  else if (dialect === 'anthropic') readAnthropic(message, index, ledger, parts);
  else readGemini(message, index, ledger, parts);
  return canonicalMessage(index, role, message.role as string, parts);
}

function canonicalMessage(
  index: number,
  role: CanonicalRole,
  sourceRole: string,
  parts: Omit<Parts, 'payload'> & { readonly payload?: Payload },
): CanonicalMessage {
  const text = parts.text.filter((piece) => piece !== '').join('\n');
  const isTurnBoundary = role === 'user' && text.trim() !== '' && !text.startsWith(SYNTHETIC_MARKER);
  const payload = parts.payload;
  return {
    index,
    role,
    sourceRole,
    text,
    reasoning: parts.reasoning.join('\n'),
    // kept for the session's life, one pair per message
    toolCalls: exactSize(parts.calls),
    toolResults: exactSize(parts.results),
    isTurnBoundary,
    // most messages are prose only: the payload fields appear only when there is something to count
    ...(payload?.attachments.length ? { attachments: payload.attachments.join('\n') } : {}),
    ...(payload?.opaque.length ? { opaque: payload.opaque.join('\n') } : {}),
    ...(payload?.mediaTokens ? { mediaTokens: payload.mediaTokens } : {}),
  };
}
