/**
 * Where values sit in a JSON text, so a request can be written back by splicing the client's own
 * bytes around the parts that change, instead of re-serializing everything (which reorders
 * nothing, but may respell numbers, escapes and whitespace, and so breaks a provider's cache).
 */

/** [start, end) character offsets of one value in the text. */
export type JsonSpan = readonly [number, number];

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The end of the string that opens at `at` (its closing quote + 1); strings are most of a request, so the quote is found natively. */
function skipString(text: string, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The end of the value that starts at `at`, or -1 when the text is cut short. */
function skipValue(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === 0x22) return skipString(text, at);
  if (first !== 0x7b && first !== 0x5b) {
    let index = at;
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code === 0x2c || code === 0x7d || code === 0x5d || isSpace(code)) break;
      index++;
    }
    return index;
  }
  let depth = 0;
  for (let index = at; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      index = skipString(text, index) - 1;
      if (index < 0) return -1;
    } else if (code === 0x7b || code === 0x5b) depth++;
    else if (code === 0x7d || code === 0x5d) {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** The spans of the members of the object at the top of `text`, by key; undefined when it is no object. */
export function topLevelSpans(text: string): Map<string, JsonSpan> | undefined {
  let at = skipSpace(text, 0);
  if (text.charCodeAt(at) !== 0x7b) return undefined;
  const spans = new Map<string, JsonSpan>();
  at = skipSpace(text, at + 1);
  if (text.charCodeAt(at) === 0x7d) return spans;
  while (at < text.length) {
    if (text.charCodeAt(at) !== 0x22) return undefined;
    const keyEnd = skipString(text, at);
    if (keyEnd < 0) return undefined;
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skipSpace(text, keyEnd);
    if (text.charCodeAt(at) !== 0x3a) return undefined;
    const valueStart = skipSpace(text, at + 1);
    const valueEnd = skipValue(text, valueStart);
    if (valueEnd < 0) return undefined;
    spans.set(key, [valueStart, valueEnd]);
    at = skipSpace(text, valueEnd);
    const separator = text.charCodeAt(at);
    if (separator === 0x7d) return spans;
    if (separator !== 0x2c) return undefined;
    at = skipSpace(text, at + 1);
  }
  return undefined;
}

/** The spans of the elements of the array `span` covers; undefined when it is no array. */
export function arrayElementSpans(text: string, span: JsonSpan): JsonSpan[] | undefined {
  let at = span[0];
  if (text.charCodeAt(at) !== 0x5b) return undefined;
  const elements: JsonSpan[] = [];
  at = skipSpace(text, at + 1);
  if (text.charCodeAt(at) === 0x5d) return elements;
  while (at < span[1]) {
    const end = skipValue(text, at);
    if (end < 0) return undefined;
    elements.push([at, end]);
    at = skipSpace(text, end);
    const separator = text.charCodeAt(at);
    if (separator === 0x5d) return elements;
    if (separator !== 0x2c) return undefined;
    at = skipSpace(text, at + 1);
  }
  return undefined;
}
