import { setOwn } from './set-own.ts';

type Clip = (text: string) => string;

/**
 * A tool call's input with every string value clipped and its shape kept: objects stay objects
 * and keys stay keys, so the call is still one the provider accepts. What a long argument holds
 * (a whole file in a Write) is the agent's own words, and folds whole into the next band.
 */
export function clipArgumentValues(value: unknown, clip: Clip): unknown {
  if (typeof value === 'string') return clip(value);
  if (Array.isArray(value)) return value.map((item) => clipArgumentValues(item, clip));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) setOwn(out, key, clipArgumentValues(child, clip));
    return out;
  }
  return value;
}

/** JSON-encoded arguments (OpenAI's `arguments`) with their string values clipped; text that is not JSON stays as it is. */
export function clipArgumentsText(text: string, clip: Clip): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(clipArgumentValues(parsed, clip));
}
