import { lineShape } from '../text/identifier-kinds.ts';
import { findIdentifiers, type NominatedIdentifier } from '../text/find-identifiers.ts';
import type { CanonicalMessage, ToolCall, ToolResult } from '../messages/types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { phraseKeys } from '../text/phrase-index.ts';
import type { FoldLineKind } from './fold-line.ts';
import { LINE_PREFIX } from './fold-line.ts';
import { ADDED_LINE } from './line-value.ts';
import { keyArgument, trailingValues } from './key-argument.ts';
import { toolFamily } from './tool-family.ts';
import { isErrorLine } from './tool-outcome.ts';
import { cutAfter, cutBefore, headOf } from '../text/safe-cut.ts';
import { BoundedWeakMap } from '../text/bounded-weak-map.ts';
import { exactSize } from '../text/exact-size.ts';

// Each message's lines are read once, into templates cached by message, call and result; a
// fold then only places and values them.

const LONG_LINE = 240;
const FRAGMENT_MAX = 320;
const WINDOW = 80;
/**
 * Output lines a fold considers per tool result: failures, identifiers and added diff lines
 * wherever they are (up to a cap), plain lines only near the head and the tail. Agents rarely
 * quote plain tool output back, so reading every line of a long listing buys nothing.
 */
const OUTPUT_TELLING_LINES = 120;
const OUTPUT_PLAIN_HEAD = 30;
const OUTPUT_PLAIN_TAIL = 10;
export const IDENTIFIER_HINT = /[0-9a-f]{7,}|\/[\w.-]+\.\w|\w_\w+_\w|[a-z][A-Z][a-z]+[A-Z]|:\d{2,5}\b|\w=\d|#\d/;

const NEEDS_COLLAPSE = /\s\s|[\t\r\n]|^\s|\s$/;
/** Whitespace-collapsed text; the text itself when already collapsed, so no copy is kept. */
export const collapse = (text: string) => (NEEDS_COLLAPSE.test(text) ? text.replace(/\s+/g, ' ').trim() : text);
const NONE: readonly never[] = Object.freeze([]);
/**
 * Identifiers of a line that shows no identifier hint: never scanned, so not known to be none.
 * Any other identifiers array of a line is its full scan.
 */
export const UNSCANNED: readonly NominatedIdentifier[] = Object.freeze([]);

/** Splits long prose into sentences so a fold can keep some of them verbatim. */
function proseFragments(line: string): string[] {
  if (line.length <= LONG_LINE) return [line];
  return line
    .split(/(?<=[.!?;])\s+(?=\S)/)
    .flatMap((sentence) => (sentence.length <= FRAGMENT_MAX ? [sentence] : [`${headOf(sentence, FRAGMENT_MAX)}…`]));
}

/** Long argument lines (one-line scripts, regexes) split at whitespace into pieces that can be kept whole. */
function argumentFragments(line: string): string[] {
  if (line.length <= LONG_LINE) return [line];
  const out: string[] = [];
  let rest = line;
  while (rest.length > LONG_LINE) {
    let cut = rest.lastIndexOf(' ', LONG_LINE);
    if (cut < LONG_LINE / 2) cut = cutBefore(rest, LONG_LINE) || LONG_LINE;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}

/** Long output lines (minified JSON, logs) keep the windows around their identifiers. */
function outputFragments(line: string): string[] {
  if (line.length <= LONG_LINE) return [line];
  const windows: Array<[number, number]> = [];
  for (const identifier of findIdentifiers(line)) {
    const start = cutBefore(line, Math.max(0, identifier.offset - WINDOW));
    const end = cutAfter(line, Math.min(line.length, identifier.offset + identifier.value.length + WINDOW));
    const last = windows[windows.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
    if (windows.length >= 6) break;
  }
  if (!windows.length) return [`${headOf(line, LONG_LINE)}…`];
  return windows.map(
    ([start, end]) => `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`,
  );
}

/** Words in a trimmed line, counted without splitting. */
function wordCount(text: string): number {
  let words = text.length ? 1 : 0;
  for (let i = 1; i < text.length; i++) if (text.charCodeAt(i - 1) === 32 && text.charCodeAt(i) !== 32) words++;
  return words;
}

/** A line as read from one message, before it is placed and valued in a fold; cached per message. */
export interface LineTemplate {
  readonly kind: FoldLineKind;
  readonly text: string;
  readonly key: string;
  readonly phrases: readonly number[];
  readonly estimate: number;
  readonly sourceLength: number;
  /** Fragments of one source line share this number (local to the template list). */
  readonly line: number;
  readonly fragment: number;
  /** Identifiers in the text, worked out once. */
  readonly identifiers: readonly NominatedIdentifier[];
  /** The text's template shape (see lineShape) when it holds identifiers, else ''. */
  readonly shape: string;
}

const INNER_SPACE_RUN = /(?<=\S)[ \t]{2,}/g;
/** Runs of spaces after a line's first word (box art, column padding) shrink to one; indentation stays. */
const compactSpaces = (text: string) =>
  text.includes('  ') || text.includes('\t') ? text.replace(INNER_SPACE_RUN, ' ') : text;

function templatesOf(kind: FoldLineKind, texts: readonly string[]): LineTemplate[] {
  const out: LineTemplate[] = [];
  texts.forEach((text, line) => {
    // the agent's own arguments (code it may edit again) stay byte for byte
    const fragments =
      kind === 'argument'
        ? argumentFragments(text)
        : (kind === 'output' || kind === 'error' ? outputFragments(text) : proseFragments(text)).map(compactSpaces);
    fragments.forEach((fragment, n) => {
      const identifiers = IDENTIFIER_HINT.test(fragment) ? findIdentifiers(fragment) : UNSCANNED;
      const phrases = phraseKeys(fragment);
      out.push({
        kind,
        text: fragment,
        key: collapse(fragment),
        phrases: phrases.length ? phrases : NONE,
        estimate: estimateTokens(LINE_PREFIX[kind] + fragment) + 1,
        sourceLength: text.length,
        line,
        fragment: n,
        identifiers,
        shape: identifiers.length ? lineShape(fragment) : '',
      });
    });
  });
  return exactSize(out);
}

function textLines(text: string): string[] {
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() !== '') lines.push(line);
  }
  return lines;
}

/**
 * Lines read from messages that one generation of each template cache keeps (see
 * BoundedWeakMap; at most about twice this stays). A line template costs about 500 bytes, so a
 * generation is a few megabytes: the whole of a real session of several hundred messages, whose
 * merges re-fold nearly all of it, while in a 10,000-message session the lines of messages folded
 * long ago are let go and read again only when a merge reaches back to them.
 */
export const TEMPLATE_CACHE_LINES = 4_096;

const proseCache = new BoundedWeakMap<CanonicalMessage, { reasoning: LineTemplate[]; text: LineTemplate[] }>(
  TEMPLATE_CACHE_LINES,
);
/** Per call, at the skeleton width last read (folds read one width; another replaces it). */
const argumentCache = new BoundedWeakMap<ToolCall, { readonly width: number; readonly templates: LineTemplate[] }>(
  TEMPLATE_CACHE_LINES,
);
const outputCache = new BoundedWeakMap<ToolResult, OutputTemplates>(TEMPLATE_CACHE_LINES);

/** A message's own words as lines: the agent's, or (for user and system messages) the user's. */
export function proseOf(message: CanonicalMessage) {
  let cached = proseCache.get(message);
  if (!cached) {
    const kind: FoldLineKind = message.role === 'assistant' ? 'assistant' : 'user';
    cached = {
      reasoning: templatesOf('reasoning', textLines(message.reasoning)),
      text: templatesOf(kind, textLines(message.text)),
    };
    proseCache.set(message, cached, 1 + cached.reasoning.length + cached.text.length);
  }
  return cached;
}

export function argumentTemplates(call: ToolCall, skeletonChars: number): LineTemplate[] {
  const known = argumentCache.get(call);
  if (known?.width === skeletonChars) return known.templates;
  const family = toolFamily(call.name);
  const key = keyArgument(family, call.input);
  const trailing = key.includes('\n') ? '' : trailingValues(family, call.input);
  const keyLines = (trailing ? `${key} ${trailing}` : key).split('\n');
  const lines: string[] = [];
  // the skeleton shows the first line cut short; the rest of a long command or script is optional
  if (keyLines[0].trim().length > skeletonChars) lines.push(keyLines[0].trim());
  for (const line of keyLines.slice(1)) if (line.trim()) lines.push(line.trimEnd());
  if (!trailing && call.input !== null && typeof call.input === 'object') {
    for (const [name, value] of Object.entries(call.input as Record<string, unknown>)) {
      if (typeof value !== 'string' || value === key) continue;
      if (value.includes('\n') || value.length > 60) lines.push(...textLines(value));
      else if (name !== 'description') lines.push(`${name}: ${value}`);
    }
  }
  const templates = templatesOf('argument', lines);
  argumentCache.set(call, { width: skeletonChars, templates }, 1 + templates.length);
  return templates;
}

/** Identifiers of output lines past the candidate cap: the closet still sees them. */
export interface ClosetOnlyIdentifier {
  readonly identifier: NominatedIdentifier;
  readonly source: string;
  readonly messageIndex: number;
}

/** A result's telling lines, and the identifiers of lines past the cap (the closet still sees them). */
export interface OutputTemplates {
  readonly templates: readonly LineTemplate[];
  readonly beyondCap: ReadonlyArray<{ identifier: NominatedIdentifier; source: string }>;
}

export function outputTemplates(result: ToolResult): OutputTemplates {
  let cached = outputCache.get(result);
  if (!cached) {
    const lines = result.text.split('\n');
    const templates: LineTemplate[] = [];
    const beyond: Array<{ identifier: NominatedIdentifier; source: string }> = [];
    let line = 0;
    let telling = 0;
    for (let n = 0; n < lines.length; n++) {
      const text = lines[n].trimEnd();
      const trimmed = text.trim();
      if (!trimmed) continue;
      if (telling >= OUTPUT_TELLING_LINES) {
        // past the cap a line is no candidate, but its exact identifiers may still be vital
        if (IDENTIFIER_HINT.test(trimmed) || isErrorLine(text))
          for (const identifier of findIdentifiers(trimmed)) beyond.push({ identifier, source: trimmed });
        continue;
      }
      let kind: FoldLineKind | undefined;
      if (isErrorLine(text)) kind = 'error';
      else if (IDENTIFIER_HINT.test(trimmed) || ADDED_LINE.test(text)) kind = 'output';
      else if ((n < OUTPUT_PLAIN_HEAD || n >= lines.length - OUTPUT_PLAIN_TAIL) && wordCount(trimmed) >= 4)
        kind = 'output';
      if (!kind) continue;
      telling++;
      for (const template of templatesOf(kind, [text])) templates.push({ ...template, line });
      line++;
    }
    cached = { templates: exactSize(templates), beyondCap: exactSize(beyond) };
    outputCache.set(result, cached, 1 + templates.length + beyond.length);
  }
  return cached;
}
