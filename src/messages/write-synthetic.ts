import { DIALECT_CODECS } from './dialects/index.ts';
import type { Dialect, ProviderMessage } from './types.ts';
import { findIdentifiers } from '../text/find-identifiers.ts';
import { cutAfter, cutBefore } from '../text/safe-cut.ts';

/** A synthetic message in the history's own dialect: Anthropic gets text blocks (cacheable), Gemini `parts`. */
export function writeSyntheticMessage(dialect: Dialect, role: 'user' | 'assistant', text: string): ProviderMessage {
  return DIALECT_CODECS[dialect].writeSynthetic(role, text);
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

/**
 * Copy of a raw message whose long texts are cut to `maxChars` (head and tail kept, the middle
 * replaced by a marker), as its dialect clips: tool outputs, texts, and the string values of a
 * call's input (the call keeps its shape). A message of no known dialect is clipped as a chat message.
 */
export function clipProviderMessage(message: ProviderMessage, maxChars: number, dialect?: Dialect): ProviderMessage {
  return DIALECT_CODECS[dialect ?? 'openai'].clip(message, (text) => clipText(text, maxChars));
}
