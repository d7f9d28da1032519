import type { Clip } from './dialect-reading.ts';
import { clipArgumentValues, clipArgumentsText } from '../clip-call-arguments.ts';
import { setOwn } from '../set-own.ts';
import type { ProviderMessage } from '../types.ts';
import { isRecord } from '../../text/is-record.ts';

const CLIP_KEYS = new Set(['content', 'text', 'output', 'result']);

/**
 * A chat-shaped message (OpenAI chat, Anthropic, Gemini) with its long text fields cut: tool
 * outputs, texts, and the string values of a call's input (the call keeps its shape). Keys are
 * copied as own properties, so a JSON-parsed `"__proto__"` key stays a plain key of the copy.
 */
export function clipTextFields(message: ProviderMessage, clip: Clip): ProviderMessage {
  const walk = (value: unknown, key: string): unknown => {
    // OpenAI chat: a call's arguments are JSON text
    if (typeof value === 'string')
      return key === 'arguments' ? clipArgumentsText(value, clip) : CLIP_KEYS.has(key) ? clip(value) : value;
    if (Array.isArray(value)) return value.map((item) => walk(item, key));
    if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      // a text document's source holds its text under `data`
      const textSource = record.type === 'text';
      // a call's input: Anthropic's tool_use block, Gemini's functionCall part
      const callInput = record.type === 'tool_use' ? 'input' : key === 'functionCall' ? 'args' : undefined;
      for (const [childKey, child] of Object.entries(record)) {
        if (childKey === callInput) setOwn(out, childKey, clipArgumentValues(child, clip));
        else
          setOwn(
            out,
            childKey,
            textSource && childKey === 'data' && typeof child === 'string' ? clip(child) : walk(child, childKey),
          );
      }
      return out;
    }
    return value;
  };
  return walk(message, '') as ProviderMessage;
}

/** Text parts (`{ type, text }`) with their text clipped; every other part as it was. */
export function clipTextParts(parts: unknown, clip: Clip): unknown {
  if (typeof parts === 'string') return clip(parts);
  if (!Array.isArray(parts)) return parts;
  return parts.map((part: unknown) =>
    isRecord(part) && typeof part.text === 'string' && part.type !== 'reasoning'
      ? { ...part, text: clip(part.text) }
      : part,
  );
}
