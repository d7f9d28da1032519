import { contentText } from './block-payload.ts';
import { clipTextFields } from './clip-fields.ts';
import {
  type DialectCodec,
  type DialectReading,
  isRecord,
  parseArguments,
  SHARED_ROLES,
  startReading,
} from './dialect-reading.ts';
import { FoldInputError } from '../fold-input-error.ts';
import type { ToolCallLedger } from '../tool-call-ledger.ts';
import type { CanonicalRole, ProviderMessage, ToolCall } from '../types.ts';
import { checkValueShape } from '../value-guard.ts';

/** OpenAI Chat Completions: string or part content, `tool_calls` on assistant messages, `tool` messages that answer them by id. */

const ROLES = new Map<unknown, CanonicalRole>([
  ...SHARED_ROLES,
  ['assistant', 'assistant'],
  ['tool', 'tool'],
  ['function', 'tool'],
]);

function read(message: ProviderMessage, index: number, ledger: ToolCallLedger): DialectReading {
  const reading = startReading(ROLES, message, 'openai', index);
  const { role, payload } = reading;
  reading.text.push(contentText(message.content, index, 'content', 'openai', payload));
  if (typeof message.reasoning_content === 'string') reading.reasoning.push(message.reasoning_content);
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
      ledger.open(call, hasId, `${index}.${reading.calls.length}`);
      reading.calls.push(call);
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
    reading.results.push({
      callId: callId ?? `name:${answered.name}`,
      name: answered.name,
      callRef: answered.ref,
      text: reading.text.pop() ?? '',
      isError: false,
    });
  }
  return reading;
}

export const openAiChat: DialectCodec = {
  read,
  writeSynthetic: (role, text) => ({ role, content: text }),
  clip: clipTextFields,
};
