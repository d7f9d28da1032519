import { clipTextParts } from './clip-fields.ts';
import {
  type Clip,
  type DialectCodec,
  type DialectReading,
  isRecord,
  kindOf,
  newReading,
  parseArguments,
  roleIn,
  SHARED_ROLES,
  valueText,
} from './dialect-reading.ts';
import { clipArgumentsText } from '../clip-call-arguments.ts';
import { FoldInputError } from '../fold-input-error.ts';
import type { ToolCallLedger } from '../tool-call-ledger.ts';
import type { CanonicalRole, ProviderMessage, ToolCall } from '../types.ts';

/**
 * OpenAI Responses input items. One assistant step is several items (reasoning, a message,
 * function calls), each read as its own canonical message; outputs answer calls by `call_id`.
 * Items of a type not listed here (server-side tool calls, references) are read as opaque
 * assistant items and pass through untouched.
 */

/** Call items the host answers, with the output type that answers each and the name a skeleton line shows. */
const CALL_ITEMS: Readonly<Record<string, { readonly output: string; readonly name?: string }>> = {
  function_call: { output: 'function_call_output' },
  custom_tool_call: { output: 'custom_tool_call_output' },
  shell_call: { output: 'shell_call_output', name: 'shell' },
  local_shell_call: { output: 'local_shell_call_output', name: 'local_shell' },
  apply_patch_call: { output: 'apply_patch_call_output', name: 'apply_patch' },
  computer_call: { output: 'computer_call_output', name: 'computer' },
};

const OUTPUT_ITEMS = new Set(Object.values(CALL_ITEMS).map((item) => item.output));

/** Content part types only Responses uses (chat parts are `text`, `image_url`, `input_audio`, `file`). */
const RESPONSES_PARTS = new Set(['input_text', 'output_text', 'input_image', 'input_file', 'refusal']);

/** Whether a message can only be a Responses input item. */
export function tellsResponsesItem(message: ProviderMessage): boolean {
  // an Anthropic response object is `type: 'message'` too, with blocks of its own: only parts tell then
  if (typeof message.type === 'string' && message.type !== 'message') return true;
  if (message.type === 'message' && typeof message.content === 'string') return true;
  if (!Array.isArray(message.content)) return false;
  for (const part of message.content as unknown[])
    if (isRecord(part) && typeof part.type === 'string' && RESPONSES_PARTS.has(part.type)) return true;
  return false;
}

/** True for items that belong to the model's side of a step: a cut may not fall between two of them. */
export function isResponsesStepItem(message: ProviderMessage): boolean {
  const type = message.type;
  if (type === undefined || type === 'message') return message.role === 'assistant';
  return typeof type === 'string' && !OUTPUT_ITEMS.has(type);
}

const MESSAGE_ROLES = new Map<unknown, CanonicalRole>([...SHARED_ROLES, ['assistant', 'assistant']]);

function contentText(content: unknown, index: number, where: string): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw new FoldInputError(index, `${where} must be a string or an array of content parts, got ${kindOf(content)}`);
  return content
    .map((part: unknown, n: number) => {
      if (!isRecord(part) || typeof part.type !== 'string')
        throw new FoldInputError(index, `${where}[${n}] needs a string type`);
      if (typeof part.text === 'string') return part.text;
      if (part.type === 'refusal' && typeof part.refusal === 'string') return part.refusal;
      return `[${part.type}]`;
    })
    .join('\n');
}

function requireString(item: ProviderMessage, field: string, index: number): string {
  const value = item[field];
  if (typeof value !== 'string' || value === '')
    throw new FoldInputError(index, `${String(item.type)} needs a non-empty string ${field}, got ${kindOf(value)}`);
  return value;
}

/** Canonical input of a call item: what a skeleton line and the phrase index read of it. */
function callInput(item: ProviderMessage, index: number): unknown {
  switch (item.type) {
    case 'function_call':
      if (typeof item.arguments !== 'string')
        throw new FoldInputError(index, `function_call needs a string arguments, got ${kindOf(item.arguments)}`);
      return parseArguments(item.arguments);
    case 'custom_tool_call':
      if (typeof item.input !== 'string')
        throw new FoldInputError(index, `custom_tool_call needs a string input, got ${kindOf(item.input)}`);
      return item.input;
    case 'shell_call': {
      const commands = isRecord(item.action) ? item.action.commands : undefined;
      if (!Array.isArray(commands) || !commands.every((command) => typeof command === 'string'))
        throw new FoldInputError(index, 'shell_call needs action.commands, an array of strings');
      return { command: commands.join('\n') };
    }
    case 'local_shell_call': {
      const command = isRecord(item.action) ? item.action.command : undefined;
      if (!Array.isArray(command) || !command.every((part) => typeof part === 'string'))
        throw new FoldInputError(index, 'local_shell_call needs action.command, an array of strings');
      return { command: command.join(' ') };
    }
    case 'apply_patch_call': {
      const operation = item.operation;
      if (!isRecord(operation) || typeof operation.type !== 'string' || typeof operation.path !== 'string')
        throw new FoldInputError(index, 'apply_patch_call needs operation.type and operation.path');
      return {
        path: operation.path,
        operation: operation.type,
        ...(typeof operation.diff === 'string' ? { diff: operation.diff } : {}),
      };
    }
    default:
      return item.action ?? {};
  }
}

/** Text and failure of an output item. */
function outputOf(item: ProviderMessage, index: number): { text: string; isError: boolean } {
  switch (item.type) {
    case 'shell_call_output': {
      if (!Array.isArray(item.output))
        throw new FoldInputError(index, `shell_call_output needs an output array, got ${kindOf(item.output)}`);
      let isError = false;
      const pieces = item.output.map((chunk: unknown, n: number) => {
        if (!isRecord(chunk)) throw new FoldInputError(index, `shell_call_output output[${n}] is not an object`);
        const outcome = isRecord(chunk.outcome) ? chunk.outcome : {};
        if (outcome.type === 'timeout' || (typeof outcome.exit_code === 'number' && outcome.exit_code !== 0))
          isError = true;
        return [valueText(chunk.stdout), valueText(chunk.stderr)].filter((text) => text !== '').join('\n');
      });
      return { text: pieces.join('\n'), isError };
    }
    case 'apply_patch_call_output':
      return { text: valueText(item.output), isError: item.status === 'failed' };
    case 'computer_call_output':
      return {
        text: isRecord(item.output) ? `[${String(item.output.type ?? 'output')}]` : valueText(item.output),
        isError: false,
      };
    default:
      return { text: contentText(item.output, index, `${String(item.type)} output`), isError: false };
  }
}

function reasoningText(item: ProviderMessage): string {
  const pieces: string[] = [];
  for (const field of ['summary', 'content'] as const) {
    const parts = item[field];
    if (Array.isArray(parts))
      for (const part of parts) if (isRecord(part) && typeof part.text === 'string') pieces.push(part.text);
  }
  return pieces.join('\n');
}

function readResponsesItem(item: ProviderMessage, index: number, ledger: ToolCallLedger): DialectReading {
  const reading = newReading('assistant', 'assistant');
  const type = item.type;
  if (type === undefined || type === 'message') {
    const role = roleIn(MESSAGE_ROLES, item.role, 'openai-responses', index);
    if (item.content === undefined || item.content === null)
      throw new FoldInputError(
        index,
        `a Responses message item needs content, a string or an array of content parts, got ${kindOf(item.content)}`,
      );
    reading.text.push(contentText(item.content, index, 'content'));
    return { ...reading, role, sourceRole: item.role as string };
  }
  if (typeof type !== 'string') throw new FoldInputError(index, `type must be a string, got ${kindOf(type)}`);
  const call = CALL_ITEMS[type];
  if (call) {
    const callId = requireString(item, 'call_id', index);
    const name = call.name ?? requireString(item, 'name', index);
    const toolCall: ToolCall = { id: callId, name, input: callInput(item, index) };
    ledger.open(toolCall, true, `${index}.${reading.calls.length}`);
    reading.calls.push(toolCall);
    return reading;
  }
  if (OUTPUT_ITEMS.has(type)) {
    // local_shell_call_output names its call by `id` in the published type, by `call_id` in the guides
    const callId =
      typeof item.call_id === 'string'
        ? item.call_id
        : type === 'local_shell_call_output' && typeof item.id === 'string'
          ? item.id
          : undefined;
    if (callId === undefined) throw new FoldInputError(index, `${type} needs a string call_id`);
    const answered = ledger.close(callId, undefined);
    if (answered === undefined)
      throw new FoldInputError(index, `${type} ${JSON.stringify(callId)} answers no pending call`);
    const { text, isError } = outputOf(item, index);
    reading.results.push({ callId, name: answered.name, callRef: answered.ref, text, isError });
    return { ...reading, role: 'tool', sourceRole: 'tool' };
  }
  if (type === 'reasoning') reading.reasoning.push(reasoningText(item));
  else reading.text.push(`[${type}]`);
  return reading;
}

/**
 * A Responses item with its long texts clipped: message text, tool output text, shell stdout and
 * stderr, a function call's argument values, a custom tool's input and a patch's diff. Reasoning
 * items (encrypted content and all) and every other call stay as they are.
 */
function clipResponsesItem(item: ProviderMessage, clip: Clip): ProviderMessage {
  const type = item.type;
  if (type === undefined || type === 'message') return { ...item, content: clipTextParts(item.content, clip) };
  if (type === 'function_call' && typeof item.arguments === 'string')
    return { ...item, arguments: clipArgumentsText(item.arguments, clip) };
  if (type === 'custom_tool_call' && typeof item.input === 'string') return { ...item, input: clip(item.input) };
  if (type === 'apply_patch_call' && isRecord(item.operation) && typeof item.operation.diff === 'string')
    return { ...item, operation: { ...item.operation, diff: clip(item.operation.diff) } };
  if (typeof type !== 'string' || !type.endsWith('_output')) return item;
  if (type === 'shell_call_output' && Array.isArray(item.output))
    return {
      ...item,
      output: item.output.map((chunk: unknown) =>
        isRecord(chunk)
          ? {
              ...chunk,
              ...(typeof chunk.stdout === 'string' ? { stdout: clip(chunk.stdout) } : {}),
              ...(typeof chunk.stderr === 'string' ? { stderr: clip(chunk.stderr) } : {}),
            }
          : chunk,
      ),
    };
  if (item.output === undefined || item.output === null) return item;
  return { ...item, output: clipTextParts(item.output, clip) };
}

export const openAiResponses: DialectCodec = {
  read: readResponsesItem,
  // an input message; assistant text as a plain string, which input messages allow without an item id
  writeSynthetic: (role, text) =>
    role === 'user'
      ? { type: 'message', role, content: [{ type: 'input_text', text }] }
      : { type: 'message', role, content: text },
  clip: clipResponsesItem,
};
