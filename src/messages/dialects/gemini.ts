import { readBlockPayload } from './block-payload.ts';
import { clipTextFields } from './clip-fields.ts';
import {
  type DialectCodec,
  type DialectReading,
  isRecord,
  SHARED_ROLES,
  startReading,
  valueText,
} from './dialect-reading.ts';
import { FoldInputError } from '../fold-input-error.ts';
import type { ToolCallLedger } from '../tool-call-ledger.ts';
import type { CanonicalRole, ProviderMessage, ToolCall } from '../types.ts';

/** Gemini `contents`: roles `user` and `model`, `parts` of text, thoughts, `functionCall` and `functionResponse`. */

const ROLES = new Map<unknown, CanonicalRole>([...SHARED_ROLES, ['model', 'assistant']]);

function read(message: ProviderMessage, index: number, ledger: ToolCallLedger): DialectReading {
  const reading = startReading(ROLES, message, 'gemini', index);
  const { payload } = reading;
  const raw = message.parts ?? (typeof message.content === 'string' ? [{ text: message.content }] : undefined);
  if (!Array.isArray(raw)) throw new FoldInputError(index, 'a Gemini message needs a parts array');
  raw.forEach((part: unknown, n: number) => {
    if (!isRecord(part)) throw new FoldInputError(index, `parts[${n}] is not an object`);
    if (typeof part.text === 'string') {
      (part.thought === true ? reading.reasoning : reading.text).push(part.text);
    } else if (isRecord(part.functionCall)) {
      const fn = part.functionCall;
      if (typeof fn.name !== 'string') throw new FoldInputError(index, `parts[${n}].functionCall needs a name`);
      const hasId = typeof fn.id === 'string' && fn.id !== '';
      const call: ToolCall = { id: hasId ? (fn.id as string) : `#${index}.${n}`, name: fn.name, input: fn.args ?? {} };
      ledger.open(call, hasId, `${index}.${reading.calls.length}`);
      reading.calls.push(call);
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
      const text = valueText(
        body.output ?? body.result ?? body.content ?? (body.error === undefined ? response.response : body.error),
      );
      reading.results.push({
        callId: callId ?? `name:${answered.name}`,
        name: answered.name,
        callRef: answered.ref,
        text,
        isError: body.error !== undefined,
      });
    } else {
      const kind = Object.keys(part)[0] ?? 'part';
      reading.text.push(`[${kind}]`);
      readBlockPayload(part, 'gemini', payload);
    }
  });
  return reading;
}

export const gemini: DialectCodec = {
  read,
  writeSynthetic: (role, text) => ({ role: role === 'assistant' ? 'model' : 'user', parts: [{ text }] }),
  clip: clipTextFields,
};
