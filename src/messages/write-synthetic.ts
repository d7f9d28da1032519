import { clipArgumentValues, clipArgumentsText } from './clip-call-arguments.ts';
import { clipModelMessage, clipResponsesItem } from './clip-dialect-message.ts';
import { setOwn } from './set-own.ts';
import type { Dialect, ProviderMessage } from './types.ts';
import { findIdentifiers } from '../text/find-identifiers.ts';
import { cutAfter, cutBefore } from '../text/safe-cut.ts';

/** A synthetic message in the history's own dialect: Anthropic gets text blocks (cacheable), Gemini `parts`. */
export function writeSyntheticMessage(dialect: Dialect, role: 'user' | 'assistant', text: string): ProviderMessage {
  if (dialect === 'gemini') return { role: role === 'assistant' ? 'model' : 'user', parts: [{ text }] };
  // Responses: an input message; assistant text as a plain string, which input messages allow without an item id
  if (dialect === 'openai-responses')
    return role === 'user'
      ? { type: 'message', role, content: [{ type: 'input_text', text }] }
      : { type: 'message', role, content: text };
  // AI SDK: text parts, so a host can put providerOptions (a cache breakpoint) on them
  if (dialect === 'ai-sdk') return { role, content: [{ type: 'text', text }] };
  if (dialect === 'anthropic') return { role, content: [{ type: 'text', text }] };
  return { role, content: text };
}

/** Share of a clip's characters that may name the identifiers its cut removed: they are what the agent quotes back. */
const CUT_IDENTIFIER_SHARE = 0.3;

/** Texts recently clipped and their identifiers, by the whole text: a clip is re-cut at shrinking lengths, every string of a call's input is cut on its own, and a step may clip several. */
const scans = new Map<string, readonly string[]>();
/** Enough for the messages one live step clips; older scans are dropped first. */
const SCANS_KEPT = 16;

function identifiersOf(text: string): readonly string[] {
  let values = scans.get(text);
  if (values === undefined) {
    values = findIdentifiers(text).map((found) => found.value);
    if (scans.size >= SCANS_KEPT) scans.delete(scans.keys().next().value!);
    scans.set(text, values);
  }
  return values;
}

/**
 * Offsets of the kept head's end and the kept tail's start when `room` characters are kept. Both
 * cuts fall on line boundaries where a line ends within half of what each end keeps, so a clipped
 * file or log shows whole lines; a text of few, long lines is cut on character boundaries.
 */
function cutPoints(text: string, room: number): { head: number; tail: number } {
  // both cuts land on character (and common cluster) boundaries: never half a surrogate pair
  let head = cutBefore(text, Math.floor(room * 0.6));
  const headLine = text.lastIndexOf('\n', head - 1);
  if (headLine >= 0 && headLine + 1 >= head / 2) head = headLine + 1;
  let tail = cutAfter(text, Math.max(head, text.length - Math.max(0, room - head)));
  const tailLine = tail > 0 && text[tail - 1] === '\n' ? tail - 1 : text.indexOf('\n', tail);
  if (tailLine >= 0 && tailLine + 1 - tail <= (text.length - tail) / 2) tail = tailLine + 1;
  return { head, tail };
}

/**
 * Head and tail of a long text with a marker for the cut middle. The marker names the
 * identifiers found only in the cut (within a share of `maxChars`, first seen first), so a
 * clipped file or log still holds the paths and names the agent may use next.
 */
export function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const keptBy = ({ head, tail }: { head: number; tail: number }) => text.slice(0, head) + text.slice(tail);
  // the names are chosen against the shortest ends they may leave, then the ends take back the room the names did not use
  const budget = Math.floor(maxChars * CUT_IDENTIFIER_SHARE);
  const shortest = keptBy(cutPoints(text, maxChars - budget));
  const names: string[] = [];
  let used = 0;
  for (const value of identifiersOf(text)) {
    if (used + value.length + 1 > budget) break;
    if (shortest.includes(value)) continue;
    names.push(value);
    used += value.length + 1;
  }
  const cut = cutPoints(text, maxChars - used);
  const kept = keptBy(cut);
  const named = names.filter((value) => !kept.includes(value));
  const omitted = text.slice(cut.head, cut.tail);
  const list = named.length ? `; in the cut: ${named.join(' ')}` : '';
  const lines = omitted.split('\n').length - (omitted.endsWith('\n') ? 1 : 0);
  return `${text.slice(0, cut.head)}\n[warpfold clipped ${omitted.length} chars, ${lines} lines${list}]\n${text.slice(cut.tail)}`;
}

const CLIP_KEYS = new Set(['content', 'text', 'output', 'result']);

/**
 * Copy of a raw message whose long text fields are cut to `maxChars` (head and tail kept, the
 * middle replaced by a marker): tool outputs, texts, and the string values of a call's input
 * (the call keeps its shape). Keys are copied as own properties, so a JSON-parsed `"__proto__"`
 * key stays a plain key of the copy and never becomes its prototype.
 */
export function clipProviderMessage(message: ProviderMessage, maxChars: number, dialect?: Dialect): ProviderMessage {
  const clip = (text: string) => clipText(text, maxChars);
  if (dialect === 'openai-responses') return clipResponsesItem(message, clip);
  if (dialect === 'ai-sdk') return clipModelMessage(message, clip);
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
