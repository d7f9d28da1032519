import { contentText, readBlockPayload } from './block-payload.ts';
import { clipTextFields } from './clip-fields.ts';
import { type DialectCodec, type DialectReading, isRecord, SHARED_ROLES, startReading } from './dialect-reading.ts';
import { FoldInputError } from '../fold-input-error.ts';
import type { ToolCallLedger } from '../tool-call-ledger.ts';
import type { CanonicalRole, ProviderMessage, ToolCall } from '../types.ts';

/**
 * Anthropic Messages: string or block content; `tool_use` blocks answered by `tool_result` blocks
 * of the next user message; thinking blocks, whose signatures are never text, and redacted ones.
 */

const ROLES = new Map<unknown, CanonicalRole>([...SHARED_ROLES, ['assistant', 'assistant']]);

function read(message: ProviderMessage, index: number, ledger: ToolCallLedger): DialectReading {
  const reading = startReading(ROLES, message, 'anthropic', index);
  const { payload } = reading;
  const content = message.content;
  if (typeof content === 'string' || content === null || content === undefined) {
    reading.text.push(content ?? '');
    return reading;
  }
  if (!Array.isArray(content))
    throw new FoldInputError(index, `content must be a string or an array of blocks, got ${typeof content}`);
  content.forEach((block: unknown, n: number) => {
    if (typeof block === 'string') return void reading.text.push(block);
    if (!isRecord(block)) throw new FoldInputError(index, `content[${n}] is not a block`);
    switch (block.type) {
      case 'text':
        reading.text.push(typeof block.text === 'string' ? block.text : '');
        return;
      case 'thinking':
        reading.reasoning.push(typeof block.thinking === 'string' ? block.thinking : '');
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
        ledger.open(call, hasId, `${index}.${reading.calls.length}`);
        reading.calls.push(call);
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
        reading.results.push({
          callId: callId as string,
          name: answered.name,
          callRef: answered.ref,
          text: contentText(block.content, index, `content[${n}].content`, 'anthropic', payload),
          isError: block.is_error === true,
        });
        return;
      }
      default:
        if (typeof block.text === 'string') reading.text.push(block.text);
        else {
          reading.text.push(`[${String(block.type ?? 'block')}]`);
          readBlockPayload(block, 'anthropic', payload);
        }
    }
  });
  return reading;
}

/** An Anthropic message's content as blocks: a string is one text block (none when empty). */
export function contentBlocks(content: unknown): unknown[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

export const anthropic: DialectCodec = {
  read,
  // text blocks, so a host can put a cache breakpoint on them
  writeSynthetic: (role, text) => ({ role, content: [{ type: 'text', text }] }),
  clip: clipTextFields,
};
