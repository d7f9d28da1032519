import { clipModelMessage, clipResponsesItem } from './clip-dialect-message.ts';
import type { Dialect, ProviderMessage } from './types.ts';
import { cutAfter, cutBefore } from '../text/safe-cut.ts';

/** A synthetic message in the history's own dialect: Anthropic gets text blocks (cacheable), Gemini `parts`. */
export function writeSyntheticMessage(dialect: Dialect, role: 'user' | 'assistant', text: string): ProviderMessage {
  if (dialect === 'gemini') return { role: role === 'assistant' ? 'model' : 'user', parts: [{ text }] };
  // Responses: an input message; assistant text as a plain string, which input messages allow without an item id
  if (dialect === 'openai-responses') return role === 'user' ? { type: 'message', role, content: [{ type: 'input_text', text }] } : { type: 'message', role, content: text };
  // AI SDK: text parts, so a host can put providerOptions (a cache breakpoint) on them
  if (dialect === 'ai-sdk') return { role, content: [{ type: 'text', text }] };
  if (dialect === 'anthropic') return { role, content: [{ type: 'text', text }] };
  return { role, content: text };
}

/** Head and tail of a long text with a marker for the cut middle. */
export function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // both cuts land on character (and common cluster) boundaries: never half a surrogate pair
  const head = cutBefore(text, Math.floor(maxChars * 0.6));
  const tail = cutAfter(text, Math.max(head, text.length - Math.max(0, maxChars - head)));
  const omitted = text.slice(head, tail);
  return `${text.slice(0, head)}\n[warpfold clipped ${omitted.length} chars, ${omitted.split('\n').length} lines]\n${text.slice(tail)}`;
}

const CLIP_KEYS = new Set(['content', 'text', 'output', 'result']);

/** Sets an own data property, even one named `__proto__`: a plain assignment would set the prototype instead. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Copy of a raw message whose long text fields are cut to `maxChars` (head and tail kept, the
 * middle replaced by a marker). Used only when one message alone would not fit under the ceiling.
 * Keys are copied as own properties, so a JSON-parsed `"__proto__"` key stays a plain key of the
 * copy and never becomes its prototype.
 */
export function clipProviderMessage(message: ProviderMessage, maxChars: number, dialect?: Dialect): ProviderMessage {
  const clip = (text: string) => clipText(text, maxChars);
  if (dialect === 'openai-responses') return clipResponsesItem(message, clip);
  if (dialect === 'ai-sdk') return clipModelMessage(message, clip);
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === 'string') return CLIP_KEYS.has(key) ? clip(value) : value;
    if (Array.isArray(value)) return value.map((item) => walk(item, key));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      // a text document's source holds its text under `data`
      const textSource = (value as Record<string, unknown>).type === 'text';
      for (const [childKey, child] of Object.entries(value)) setOwn(out, childKey, textSource && childKey === 'data' && typeof child === 'string' ? clip(child) : walk(child, childKey));
      return out;
    }
    return value;
  };
  return walk(message, '') as ProviderMessage;
}
