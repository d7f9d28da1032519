import { clipArgumentValues, clipArgumentsText } from './clip-call-arguments.ts';
import { isRecord } from './dialect-reading.ts';
import type { ProviderMessage } from './types.ts';

type Clip = (text: string) => string;

/** Text parts (`{ type, text }`) with their text clipped; every other part as it was. */
function clipTextParts(parts: unknown, clip: Clip): unknown {
  if (typeof parts === 'string') return clip(parts);
  if (!Array.isArray(parts)) return parts;
  return parts.map((part: unknown) =>
    isRecord(part) && typeof part.text === 'string' && part.type !== 'reasoning'
      ? { ...part, text: clip(part.text) }
      : part,
  );
}

/**
 * A Responses item with its long texts clipped: message text, tool output text, shell stdout and
 * stderr, a function call's argument values, a custom tool's input and a patch's diff. Reasoning
 * items (encrypted content and all) and every other call stay as they are.
 */
export function clipResponsesItem(item: ProviderMessage, clip: Clip): ProviderMessage {
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
export function clipModelMessage(message: ProviderMessage, clip: Clip): ProviderMessage {
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
