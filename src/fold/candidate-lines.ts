import { findIdentifiers, type NominatedIdentifier } from '../text/find-identifiers.ts';
import { pairToolCalls } from '../messages/pair-tool-calls.ts';
import type { CanonicalMessage, ToolCall, ToolResult } from '../messages/types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { phraseKeys, type PhraseIndex } from '../text/phrase-index.ts';
import type { FoldLine } from './fold-line.ts';
import { wordDensity, type LineValueWeights } from './line-value.ts';
import { BoundedWeakMap } from '../text/bounded-weak-map.ts';
import {
  argumentTemplates,
  collapse,
  IDENTIFIER_HINT,
  TEMPLATE_CACHE_LINES,
  outputTemplates,
  proseOf,
  UNSCANNED,
  type ClosetOnlyIdentifier,
  type LineTemplate,
} from './line-templates.ts';
import { skeletonLine } from './skeleton-line.ts';
import { rawTextHolding } from '../messages/raw-text-holding.ts';
import type { Band } from './band.ts';
import { shownLines } from './shown-lines.ts';

export type { ClosetOnlyIdentifier } from './line-templates.ts';

/** A call's skeleton line, read once: identifiers, phrases and size. */
interface CallLine {
  readonly text: string;
  readonly key: string;
  readonly phrases: readonly number[];
  readonly identifiers: readonly NominatedIdentifier[];
  readonly estimate: number;
}

/**
 * Per call, at the width it was last read at: folds read one width, so a map of widths per call
 * (about 190 bytes each) would only hold one entry; another width replaces it.
 */
const skeletonCache = new BoundedWeakMap<ToolCall, { readonly width: number; readonly line: CallLine }>(
  TEMPLATE_CACHE_LINES,
);

function readCallLine(text: string): CallLine {
  return {
    text,
    key: collapse(text),
    phrases: phraseKeys(text),
    identifiers: IDENTIFIER_HINT.test(text) ? findIdentifiers(text) : UNSCANNED,
    estimate: estimateTokens(text) + 1,
  };
}

/** A call's skeleton line; fixed once its results are in, so it is rendered and read once. */
function skeletonOf(call: ToolCall, results: readonly ToolResult[], width: number): CallLine {
  if (!results.length) return readCallLine(skeletonLine(call, results, width));
  const cached = skeletonCache.get(call);
  if (cached?.width === width) return cached.line;
  const line = readCallLine(skeletonLine(call, results, width));
  skeletonCache.set(call, { width, line });
  return line;
}

/** Places templates into the fold: order, line identity, value. */
class LineBuilder {
  readonly lines: FoldLine[] = [];
  /** shapes[i]: template shape of lines[i] when it holds identifiers (read once per message). */
  readonly shapes: string[] = [];
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
        wordValue:
          wordDensity(
            template.kind,
            template.text,
            template.sourceLength,
            template.phrases,
            this.phrases,
            this.weights,
          ) * template.estimate,
        estimate: template.estimate,
        mandatory,
      });
      this.shapes.push(template.shape);
    }
    this.lineId++;
  }

  addCall(call: CallLine, messageIndex: number, position: number): void {
    const { text, phrases, estimate } = call;
    // a call line is worth what its arguments are; the band decides which ones are guaranteed
    const wordValue = wordDensity('argument', text, text.length, phrases, this.phrases, this.weights) * estimate;
    this.lines.push({
      order: this.order++,
      messageIndex,
      kind: 'call',
      lineId: ++this.lineId,
      fragment: 0,
      text,
      key: call.key,
      phrases,
      identifierValue: 0,
      identifiers: call.identifiers,
      wordValue,
      estimate,
      mandatory: false,
      call: position,
    });
    this.shapes.push('');
    this.lineId++;
  }
}

/** Each identifier is worth its context only at its latest occurrence: that is the line an agent looks back to. */
function assignIdentifierValues(lines: FoldLine[], lineShapes: readonly string[], weights: LineValueWeights): void {
  const latest = new Map<string, FoldLine>();
  const uses = new Map<string, number>();
  const byAgent = new Set<string>();
  const shapes = new Map<string, number>();
  const shapeOf = new Map<FoldLine, string>();
  lines.forEach((line, i) => {
    if (!line.identifiers.length || line.kind === 'call') return;
    const shape = lineShapes[i];
    shapeOf.set(line, shape);
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  });
  for (const line of lines) {
    for (const { value } of line.identifiers) {
      latest.set(value, line);
      uses.set(value, (uses.get(value) ?? 0) + 1);
      if (line.kind === 'assistant' || line.kind === 'argument' || line.kind === 'call') byAgent.add(value);
    }
  }
  // an identifier the agent used, or one that keeps coming back, is one it will look for again
  for (const [value, line] of latest) {
    const shape = shapeOf.get(line);
    const spam = shape === undefined ? 1 : (shapes.get(shape) ?? 1);
    line.identifierValue +=
      (weights.identifier * (byAgent.has(value) ? 2 : 1) * Math.min(3, Math.log2(1 + (uses.get(value) ?? 1)))) /
      (spam >= 3 ? Math.sqrt(spam) : 1);
  }
}

/** A fold's candidate lines, the template shape of each, the closet's extra values and the calls already counted without a line. */
export interface Candidates {
  readonly lines: FoldLine[];
  readonly shapes: readonly string[];
  readonly closetOnly: ClosetOnlyIdentifier[];
  /** Calls of sealed bands re-folded from their lines that those bands only counted, by name. */
  readonly omitted: ReadonlyMap<string, number>;
  /** The first message read raw: the ones before it come from sealed bands' lines. */
  readonly rawStart: number;
}

/**
 * Every line a fold of messages [start, end) could keep, in order: the user's and the agent's
 * words, one mandatory skeleton line per tool call followed by its argument lines and the
 * telling lines of its output. `sealed` bands, contiguous from `start`, give their stretch as
 * the lines they show (see shown-lines.ts) instead of their raw messages.
 */
export function candidateLines(
  messages: readonly CanonicalMessage[],
  start: number,
  end: number,
  skeletonChars: number,
  phrases: PhraseIndex,
  weights: LineValueWeights,
  pinned: number,
  sealed: readonly Band[] = [],
): Candidates {
  const builder = new LineBuilder(phrases, weights);
  const closetOnly: ClosetOnlyIdentifier[] = [];
  const omitted = new Map<string, number>();
  for (const band of sealed) {
    for (const { origin, template } of shownLines(band)) {
      if (origin.kind === 'call') builder.addCall(template, origin.messageIndex, origin.call ?? 0);
      else builder.add([template], origin.messageIndex, origin.kind === 'user' && origin.messageIndex === pinned);
    }
    for (const [name, count] of band.origins?.omitted ?? []) omitted.set(name, (omitted.get(name) ?? 0) + count);
    // the raw text of the one message a value came from: its label and window read as when it was first folded
    for (const { value, kind, messageIndex } of band.origins?.closet ?? [])
      closetOnly.push({
        identifier: { value, kind, offset: 0 },
        source: rawTextHolding((index) => messages[index], value, messageIndex, band.end)?.text ?? value,
        messageIndex,
      });
  }
  const rawStart = sealed.length ? sealed[sealed.length - 1].end : start;
  // results paired to their call, so output renders under its call
  const resultsByCall = new Map<ToolCall, ToolResult[]>();
  for (const pair of pairToolCalls(messages.slice(rawStart, end)))
    resultsByCall.set(pair.call, pair.result ? [pair.result] : []);
  for (let i = rawStart; i < end; i++) {
    const message = messages[i];
    if (message.role === 'user' || message.role === 'system') builder.add(proseOf(message).text, i, i === pinned);
    else if (message.role === 'assistant') {
      const prose = proseOf(message);
      builder.add(prose.reasoning, i);
      builder.add(prose.text, i);
      message.toolCalls.forEach((call, position) => {
        const results = resultsByCall.get(call) ?? [];
        builder.addCall(skeletonOf(call, results, skeletonChars), i, position);
        builder.add(argumentTemplates(call, skeletonChars), i);
        for (const result of results) {
          const output = outputTemplates(result);
          builder.add(output.templates, i);
          for (const { identifier, source } of output.beyondCap)
            closetOnly.push({ identifier, source, messageIndex: i });
        }
      });
    }
  }
  assignIdentifierValues(builder.lines, builder.shapes, weights);
  return { lines: builder.lines, shapes: builder.shapes, closetOnly, omitted, rawStart };
}
