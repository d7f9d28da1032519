import { clipTextParts } from './clip-fields.ts';
import {
  type Clip,
  type DialectCodec,
  type DialectReading,
  isRecord,
  kindOf,
  newReading,
  roleIn,
  valueText,
} from './dialect-reading.ts';
import { clipArgumentValues } from '../clip-call-arguments.ts';
import { FoldInputError } from '../fold-input-error.ts';
import type { ToolCallLedger } from '../tool-call-ledger.ts';
import type { CanonicalRole, ProviderMessage, ToolCall } from '../types.ts';

/**
 * The AI SDK's `ModelMessage` (ai 5 and 6): `system` with a string, `user` / `assistant` with a
 * string or parts, `tool` with `tool-result` parts that answer `tool-call` parts by `toolCallId`.
 */

const ROLES = new Map<unknown, CanonicalRole>([
  ['system', 'system'],
  ['user', 'user'],
  ['assistant', 'assistant'],
  ['tool', 'tool'],
]);

/** Part types only the AI SDK uses (the kebab-case ones; `text` is everyone's). */
const MODEL_MESSAGE_PARTS = new Set([
  'tool-call',
  'tool-result',
  'reasoning',
  'tool-approval-request',
  'tool-approval-response',
]);

/** Whether a message can only be an AI SDK `ModelMessage`. */
export function tellsModelMessage(message: ProviderMessage): boolean {
  if (isRecord(message.providerOptions)) return true;
  if (!Array.isArray(message.content)) return false;
  for (const part of message.content as unknown[]) {
    if (!isRecord(part) || typeof part.type !== 'string') continue;
    if (MODEL_MESSAGE_PARTS.has(part.type) || isRecord(part.providerOptions)) return true;
    // Anthropic images carry `source`, OpenAI chat files carry `file`
    if (part.type === 'image' && 'image' in part) return true;
    if (part.type === 'file' && 'mediaType' in part) return true;
  }
  return false;
}

/** Text of a tool result's `output` and whether it reports a failure. */
function outputOf(output: unknown, index: number, where: string): { text: string; isError: boolean } {
  if (!isRecord(output) || typeof output.type !== 'string')
    throw new FoldInputError(
      index,
      `${where}.output must be an object with a type (text, json, error-text, error-json, content), got ${kindOf(output)}`,
    );
  switch (output.type) {
    case 'text':
    case 'error-text':
      if (typeof output.value !== 'string')
        throw new FoldInputError(index, `${where}.output.value must be a string for type ${output.type}`);
      return { text: output.value, isError: output.type === 'error-text' };
    case 'json':
    case 'error-json':
      return { text: valueText(output.value), isError: output.type === 'error-json' };
    case 'execution-denied':
      return { text: typeof output.reason === 'string' ? output.reason : 'execution denied', isError: true };
    case 'content': {
      if (!Array.isArray(output.value))
        throw new FoldInputError(index, `${where}.output.value must be an array for type content`);
      const pieces = output.value.map((item: unknown, n: number) => {
        if (!isRecord(item) || typeof item.type !== 'string')
          throw new FoldInputError(index, `${where}.output.value[${n}] needs a string type`);
        return item.type === 'text' && typeof item.text === 'string' ? item.text : `[${item.type}]`;
      });
      return { text: pieces.join('\n'), isError: false };
    }
    default:
      throw new FoldInputError(index, `${where}.output has an unknown type ${JSON.stringify(output.type)}`);
  }
}

function readModelMessage(message: ProviderMessage, index: number, ledger: ToolCallLedger): DialectReading {
  const role = roleIn(ROLES, message.role, 'ai-sdk', index);
  const reading = newReading(role, message.role as string);
  const content = message.content;
  if (typeof content === 'string') {
    if (role === 'tool')
      throw new FoldInputError(index, 'content of a tool message must be an array of tool-result parts');
    reading.text.push(content);
    return reading;
  }
  if (role === 'system')
    throw new FoldInputError(index, `content of a system message must be a string, got ${kindOf(content)}`);
  if (!Array.isArray(content))
    throw new FoldInputError(index, `content must be a string or an array of parts, got ${kindOf(content)}`);
  content.forEach((part: unknown, n: number) => {
    const where = `content[${n}]`;
    if (!isRecord(part) || typeof part.type !== 'string')
      throw new FoldInputError(index, `${where} needs a string type`);
    switch (part.type) {
      case 'text':
        if (typeof part.text !== 'string') throw new FoldInputError(index, `${where}.text must be a string`);
        reading.text.push(part.text);
        return;
      case 'reasoning':
        if (typeof part.text !== 'string') throw new FoldInputError(index, `${where}.text must be a string`);
        reading.reasoning.push(part.text);
        return;
      case 'tool-call': {
        if (role !== 'assistant') throw new FoldInputError(index, `${where} is a tool-call on a ${role} message`);
        if (typeof part.toolCallId !== 'string' || part.toolCallId === '')
          throw new FoldInputError(index, `${where}.toolCallId must be a non-empty string`);
        if (typeof part.toolName !== 'string') throw new FoldInputError(index, `${where}.toolName must be a string`);
        if (!('input' in part)) throw new FoldInputError(index, `${where}.input is missing`);
        const call: ToolCall = { id: part.toolCallId, name: part.toolName, input: part.input ?? {} };
        ledger.open(call, true, `${index}.${reading.calls.length}`);
        reading.calls.push(call);
        return;
      }
      case 'tool-result': {
        if (role !== 'tool' && role !== 'assistant')
          throw new FoldInputError(index, `${where} is a tool-result on a ${role} message`);
        if (typeof part.toolCallId !== 'string' || part.toolCallId === '')
          throw new FoldInputError(index, `${where}.toolCallId must be a non-empty string`);
        const { text, isError } = outputOf(part.output, index, where);
        const answered = ledger.close(part.toolCallId, undefined);
        if (answered === undefined)
          throw new FoldInputError(
            index,
            `${where} tool-result ${JSON.stringify(part.toolCallId)} answers no pending tool-call`,
          );
        reading.results.push({ callId: part.toolCallId, name: answered.name, callRef: answered.ref, text, isError });
        return;
      }
      case 'tool-approval-request':
      case 'tool-approval-response':
        return;
      default:
        // image, file and parts of later SDK versions: a placeholder, the part itself passes through
        reading.text.push(`[${part.type}]`);
    }
  });
  return reading;
}

/** A tool result's output clipped; JSON outputs become text outputs holding their clipped JSON. */
function clipOutput(output: unknown, clip: Clip): unknown {
  if (!isRecord(output)) return output;
  switch (output.type) {
    case 'text':
    case 'error-text':
      return typeof output.value === 'string' ? { ...output, value: clip(output.value) } : output;
    case 'json':
    case 'error-json':
      return {
        ...output,
        type: output.type === 'json' ? 'text' : 'error-text',
        value: clip(JSON.stringify(output.value) ?? ''),
      };
    case 'content':
      return Array.isArray(output.value) ? { ...output, value: clipTextParts(output.value, clip) } : output;
    default:
      return output;
  }
}

/**
 * An AI SDK message with its long texts clipped: text parts, tool-result outputs and the string
 * values of a tool call's input. Reasoning parts (whose provider signatures cover their text)
 * stay as they are.
 */
function clipModelMessage(message: ProviderMessage, clip: Clip): ProviderMessage {
  const content = message.content;
  if (typeof content === 'string') return { ...message, content: clip(content) };
  if (!Array.isArray(content)) return message;
  return {
    ...message,
    content: content.map((part: unknown) => {
      if (!isRecord(part)) return part;
      if (part.type === 'text' && typeof part.text === 'string') return { ...part, text: clip(part.text) };
      if (part.type === 'tool-result') return { ...part, output: clipOutput(part.output, clip) };
      if (part.type === 'tool-call' && part.input !== undefined)
        return { ...part, input: clipArgumentValues(part.input, clip) };
      return part;
    }),
  };
}

export const aiSdk: DialectCodec = {
  read: readModelMessage,
  // text parts, so a host can put providerOptions (a cache breakpoint) on them
  writeSynthetic: (role, text) => ({ role, content: [{ type: 'text', text }] }),
  clip: clipModelMessage,
};
