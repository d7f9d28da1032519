import { findIdentifiers, type NominatedIdentifier } from '../closet/nominate-verbatim.ts';
import { lineShape } from '../closet/identifier-kinds.ts';
import { pairToolCalls } from '../messages/pair-tool-calls.ts';
import type { CanonicalMessage, ToolCall, ToolResult } from '../messages/types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { phraseKeys, type PhraseIndex } from '../text/phrase-index.ts';
import type { FoldLine, FoldLineKind } from './fold-line.ts';
import { LINE_PREFIX } from './fold-line.ts';
import { keyArgument } from './key-argument.ts';
import { skeletonLine } from './skeleton-line.ts';
import { toolFamily } from './tool-family.ts';
import { isErrorLine } from './tool-outcome.ts';
import { wordDensity, type LineValueWeights } from './line-value.ts';

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
const ADDED_DIFF_LINE = /^\s*(\d+\s*)?\+(?!\+)/;
const IDENTIFIER_HINT = /[0-9a-f]{7,}|\/[\w.-]+\.\w|\w_\w+_\w|[a-z][A-Z][a-z]+[A-Z]|:\d{2,5}\b|\w=\d|#\d/;

const NEEDS_COLLAPSE = /\s\s|[\t\r\n]|^\s|\s$/;
/** Whitespace-collapsed text; the text itself when already collapsed, so no copy is kept. */
const collapse = (text: string) => (NEEDS_COLLAPSE.test(text) ? text.replace(/\s+/g, ' ').trim() : text);
const NONE: readonly never[] = Object.freeze([]);

/** Splits long prose into sentences so a fold can keep some of them verbatim. */
function proseFragments(line: string): string[] {
  if (line.length <= LONG_LINE) return [line];
  return line
    .split(/(?<=[.!?;])\s+(?=\S)/)
    .flatMap((sentence) => (sentence.length <= FRAGMENT_MAX ? [sentence] : [`${sentence.slice(0, FRAGMENT_MAX)}…`]));
}

/** Long argument lines (one-line scripts, regexes) split at whitespace into pieces that can be kept whole. */
function argumentFragments(line: string): string[] {
  if (line.length <= LONG_LINE) return [line];
  const out: string[] = [];
  let rest = line;
  while (rest.length > LONG_LINE) {
    let cut = rest.lastIndexOf(' ', LONG_LINE);
    if (cut < LONG_LINE / 2) cut = LONG_LINE;
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
    const start = Math.max(0, identifier.offset - WINDOW);
    const end = Math.min(line.length, identifier.offset + identifier.value.length + WINDOW);
    const last = windows[windows.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
    if (windows.length >= 6) break;
  }
  if (!windows.length) return [`${line.slice(0, LONG_LINE)}…`];
  return windows.map(([start, end]) => `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`);
}

/** Words in a trimmed line, counted without splitting. */
function wordCount(text: string): number {
  let words = text.length ? 1 : 0;
  for (let i = 1; i < text.length; i++) if (text.charCodeAt(i - 1) === 32 && text.charCodeAt(i) !== 32) words++;
  return words;
}

/** A line as read from one message, before it is placed and valued in a fold; cached per message. */
interface LineTemplate {
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
}

function templatesOf(kind: FoldLineKind, texts: readonly string[]): LineTemplate[] {
  const out: LineTemplate[] = [];
  texts.forEach((text, line) => {
    const fragments = kind === 'argument' ? argumentFragments(text) : kind === 'output' || kind === 'error' ? outputFragments(text) : proseFragments(text);
    fragments.forEach((fragment, n) => {
      const identifiers = IDENTIFIER_HINT.test(fragment) ? findIdentifiers(fragment) : NONE;
      const phrases = phraseKeys(fragment);
      out.push({ kind, text: fragment, key: collapse(fragment), phrases: phrases.length ? phrases : NONE, estimate: estimateTokens(LINE_PREFIX[kind] + fragment) + 1, sourceLength: text.length, line, fragment: n, identifiers });
    });
  });
  return out;
}

function textLines(text: string): string[] {
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line.trim() !== '') lines.push(line);
  }
  return lines;
}

const proseCache = new WeakMap<CanonicalMessage, { reasoning: LineTemplate[]; text: LineTemplate[] }>();
const argumentCache = new WeakMap<ToolCall, Map<number, LineTemplate[]>>();
const outputCache = new WeakMap<ToolResult, LineTemplate[]>();

function proseOf(message: CanonicalMessage, kind: FoldLineKind) {
  let cached = proseCache.get(message);
  if (!cached) {
    cached = { reasoning: templatesOf('reasoning', textLines(message.reasoning)), text: templatesOf(kind, textLines(message.text)) };
    proseCache.set(message, cached);
  }
  return cached;
}

function argumentTemplates(call: ToolCall, skeletonChars: number): LineTemplate[] {
  let byWidth = argumentCache.get(call);
  if (!byWidth) argumentCache.set(call, (byWidth = new Map()));
  let cached = byWidth.get(skeletonChars);
  if (!cached) {
    const family = toolFamily(call.name);
    const key = keyArgument(family, call.input);
    const keyLines = key.split('\n');
    const lines: string[] = [];
    // the skeleton shows the first line cut short; the rest of a long command or script is optional
    if (keyLines[0].trim().length > skeletonChars) lines.push(keyLines[0].trim());
    for (const line of keyLines.slice(1)) if (line.trim()) lines.push(line.trimEnd());
    if (call.input !== null && typeof call.input === 'object') {
      for (const [name, value] of Object.entries(call.input as Record<string, unknown>)) {
        if (typeof value !== 'string' || value === key) continue;
        if (value.includes('\n') || value.length > 60) lines.push(...textLines(value));
        else if (name !== 'description') lines.push(`${name}: ${value}`);
      }
    }
    cached = templatesOf('argument', lines);
    byWidth.set(skeletonChars, cached);
  }
  return cached;
}

/** Identifiers of output lines past the candidate cap: the closet still sees them. */
export interface ClosetOnlyIdentifier {
  readonly identifier: NominatedIdentifier;
  readonly source: string;
  readonly messageIndex: number;
}

const beyondCapCache = new WeakMap<ToolResult, Array<{ identifier: NominatedIdentifier; source: string }>>();

function outputTemplates(result: ToolResult): LineTemplate[] {
  let cached = outputCache.get(result);
  if (!cached) {
    const lines = result.text.split('\n');
    cached = [];
    const beyond: Array<{ identifier: NominatedIdentifier; source: string }> = [];
    let line = 0;
    let telling = 0;
    for (let n = 0; n < lines.length; n++) {
      const text = lines[n].trimEnd();
      const trimmed = text.trim();
      if (!trimmed) continue;
      if (telling >= OUTPUT_TELLING_LINES) {
        // past the cap a line is no candidate, but its exact identifiers may still be vital
        if (IDENTIFIER_HINT.test(trimmed) || isErrorLine(text)) for (const identifier of findIdentifiers(trimmed)) beyond.push({ identifier, source: trimmed });
        continue;
      }
      let kind: FoldLineKind | undefined;
      if (isErrorLine(text)) kind = 'error';
      else if (IDENTIFIER_HINT.test(trimmed) || ADDED_DIFF_LINE.test(text)) kind = 'output';
      else if ((n < OUTPUT_PLAIN_HEAD || n >= lines.length - OUTPUT_PLAIN_TAIL) && wordCount(trimmed) >= 4) kind = 'output';
      if (!kind) continue;
      telling++;
      for (const template of templatesOf(kind, [text])) cached.push({ ...template, line });
      line++;
    }
    outputCache.set(result, cached);
    beyondCapCache.set(result, beyond);
  }
  return cached;
}

const skeletonCache = new WeakMap<ToolCall, string>();

/** A call's skeleton line; fixed once its results are in, so it is rendered once. */
function skeletonOf(call: ToolCall, results: readonly ToolResult[], width: number): string {
  if (!results.length) return skeletonLine(call, results, width);
  let line = skeletonCache.get(call);
  if (line === undefined) skeletonCache.set(call, (line = skeletonLine(call, results, width)));
  return line;
}

/** Places templates into the fold: order, line identity, value. */
class LineBuilder {
  readonly lines: FoldLine[] = [];
  private order = 0;
  private lineId = 0;
  constructor(
    private readonly phrases: PhraseIndex,
    private readonly weights: LineValueWeights,
  ) {}

  add(templates: readonly LineTemplate[], messageIndex: number, mandatory = false): void {
    let lastLine = -1;
    for (const template of templates) {
      if (template.line !== lastLine) {
        this.lineId++;
        lastLine = template.line;
      }
      this.lines.push({
        order: this.order++,
        messageIndex,
        kind: template.kind,
        lineId: this.lineId,
        fragment: template.fragment,
        text: template.text,
        key: template.key,
        phrases: template.phrases,
        identifierValue: 0,
        identifiers: template.identifiers,
        wordValue: wordDensity(template.kind, template.text, template.sourceLength, template.phrases, this.phrases, this.weights) * template.estimate,
        estimate: template.estimate,
        mandatory,
      });
    }
    this.lineId++;
  }

  addCall(text: string, messageIndex: number): void {
    const identifiers = IDENTIFIER_HINT.test(text) ? findIdentifiers(text) : [];
    const phrases = phraseKeys(text);
    const estimate = estimateTokens(text) + 1;
    // a call line is worth what its arguments are; the band decides which ones are guaranteed
    const wordValue = wordDensity('argument', text, text.length, phrases, this.phrases, this.weights) * estimate;
    this.lines.push({ order: this.order++, messageIndex, kind: 'call', lineId: ++this.lineId, fragment: 0, text, key: collapse(text), phrases, identifierValue: 0, identifiers, wordValue, estimate, mandatory: false });
    this.lineId++;
  }
}

/** Each identifier is worth its context only at its latest occurrence: that is the line an agent looks back to. */
function assignIdentifierValues(lines: FoldLine[], weights: LineValueWeights): void {
  const latest = new Map<string, FoldLine>();
  const uses = new Map<string, number>();
  const byAgent = new Set<string>();
  const shapes = new Map<string, number>();
  for (const line of lines) if (line.identifiers.length && line.kind !== 'call') shapes.set(lineShape(line.text), (shapes.get(lineShape(line.text)) ?? 0) + 1);
  for (const line of lines) {
    for (const { value } of line.identifiers) {
      latest.set(value, line);
      uses.set(value, (uses.get(value) ?? 0) + 1);
      if (line.kind === 'assistant' || line.kind === 'argument' || line.kind === 'call') byAgent.add(value);
    }
  }
  // an identifier the agent used, or one that keeps coming back, is one it will look for again
  for (const [value, line] of latest) {
    const spam = line.kind === 'call' ? 1 : (shapes.get(lineShape(line.text)) ?? 1);
    line.identifierValue += (weights.identifier * (byAgent.has(value) ? 2 : 1) * Math.min(3, Math.log2(1 + (uses.get(value) ?? 1)))) / (spam >= 3 ? Math.sqrt(spam) : 1);
  }
}

/**
 * Every line a fold of messages [start, end) could keep, in order: the user's and the agent's
 * words, one mandatory skeleton line per tool call followed by its argument lines and the
 * telling lines of its output.
 */
export function candidateLines(
  messages: readonly CanonicalMessage[],
  start: number,
  end: number,
  skeletonChars: number,
  phrases: PhraseIndex,
  weights: LineValueWeights,
  pinned: number,
): { lines: FoldLine[]; closetOnly: ClosetOnlyIdentifier[] } {
  const builder = new LineBuilder(phrases, weights);
  const closetOnly: ClosetOnlyIdentifier[] = [];
  // results paired to their call, so output renders under its call
  const resultsByCall = new Map<ToolCall, ToolResult[]>();
  for (const pair of pairToolCalls(messages.slice(start, end))) resultsByCall.set(pair.call, pair.result ? [pair.result] : []);
  for (let i = start; i < end; i++) {
    const message = messages[i];
    if (message.role === 'user' || message.role === 'system') builder.add(proseOf(message, 'user').text, i, i === pinned);
    else if (message.role === 'assistant') {
      const prose = proseOf(message, 'assistant');
      builder.add(prose.reasoning, i);
      builder.add(prose.text, i);
      for (const call of message.toolCalls) {
        const results = resultsByCall.get(call) ?? [];
        builder.addCall(skeletonOf(call, results, skeletonChars), i);
        builder.add(argumentTemplates(call, skeletonChars), i);
        for (const result of results) {
          builder.add(outputTemplates(result), i);
          for (const { identifier, source } of beyondCapCache.get(result) ?? []) closetOnly.push({ identifier, source, messageIndex: i });
        }
      }
    }
  }
  assignIdentifierValues(builder.lines, weights);
  return { lines: builder.lines, closetOnly };
}
