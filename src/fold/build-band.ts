import {
  lastLineAround,
  messageIdentifiers,
  prepareCloset,
  type ClosetOccurrence,
  type LineWindow,
} from '../closet/render-closet.ts';
import { rawTextHolding } from '../messages/raw-text-holding.ts';
import { sealContents } from './band-contents.ts';
import { recordBandBuild, type ClosetEntry } from './band-receipt.ts';
import type { TokenCounter } from '../messages/transcript.ts';
import type { CanonicalMessage } from '../messages/types.ts';
import { detachedCopy } from '../text/detached-copy.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { candidateLines, type ClosetOnlyIdentifier } from './candidate-lines.ts';
import { argumentTemplates, collapse, outputTemplates, proseOf } from './line-templates.ts';
import type { FoldLine } from './fold-line.ts';
import { lineGroups, renderLines } from './render-lines.ts';
import { createLineSelector } from './select-lines.ts';
import type { LineValueWeights } from './line-value.ts';
import type { PhraseIndex } from '../text/phrase-index.ts';
import type { Band, BandLineOrigin, BandOrigins } from './band.ts';

export const FOLD_PREAMBLE =
  "Earlier turns, folded oldest first. » lines are the user's words; plain lines are your own, verbatim; ∴ your reasoning; " +
  '▸ one line per tool call with its key argument → outcome, ⋮ more of its arguments, │ telling lines of its output; ' +
  '⌖ exact identifiers from folded turns. Omitted lines were dropped: re-run a tool to see its output whole.';

export interface BandRequest {
  readonly messages: readonly CanonicalMessage[];
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  readonly budgetTokens: number;
  readonly countTokens: TokenCounter;
  /** Role spelling of the synthetic user message, for counting it as the provider sees it. */
  readonly userRole: string;
  /** Whitespace-collapsed lines the view already holds before this band: not repeated. */
  readonly presentLines: Pick<ReadonlySet<string>, 'has'>;
  /** Phrase keys the view already holds before this band: lines made of them are worth less. */
  readonly presentPhrases: Pick<ReadonlySet<number>, 'has'>;
  readonly phrases: PhraseIndex;
  /** Message whose words are kept whatever the budget (the live instruction), or -1. */
  readonly pinned: number;
  /** Identifiers the view already holds before this band: the closet need not repeat them. */
  readonly presentIdentifiers: Pick<ReadonlySet<string>, 'has'>;
  readonly withPreamble: boolean;
  readonly weights: LineValueWeights;
  readonly closetFraction: number;
  readonly rawTokens: number;
  /** Exact tokens per estimated token seen in earlier bands: a first guess that saves attempts. */
  readonly estimateScale?: number;
  /** Token counts of rendered lines, kept by the session so repeated folds count each line once. */
  readonly lineTokens?: LineTokenCache;
  /** Sealed bands, contiguous from `start`, that this fold re-folds from the lines they show, not from their raw messages. */
  readonly sealed?: readonly Band[];
}

/**
 * Band lines whose counts one generation of the memo keeps (at most twice this stay). A fold
 * measures its band line by line over a few attempts and a merge re-measures the newest bands,
 * a few hundred lines at 16,000 tokens and a few thousand at the largest ceilings; lines of bands
 * long sealed are not measured again. Each entry holds its line's text (about 200 bytes).
 */
export const LINE_TOKEN_CACHE_CAPACITY = 4_096;

/** Per-session memo of line token counts, in two generations (as BoundedWeakMap, for string keys). */
export class LineTokenCache {
  private young = new Map<string, number>();
  private old = new Map<string, number>();
  constructor(private readonly countTokens: TokenCounter) {}
  count(line: string): number {
    let tokens = this.young.get(line);
    if (tokens !== undefined) return tokens;
    tokens = this.old.get(line) ?? this.countTokens(line);
    if (this.young.size >= LINE_TOKEN_CACHE_CAPACITY) {
      this.old = this.young;
      this.young = new Map();
    }
    // lines come split from whole band texts: a key of their own lets each text go with its attempt
    this.young.set(detachedCopy(line), tokens);
    return tokens;
  }
}

/** The line break after the role tag and the one closing the message. */
const MESSAGE_FRAMING_TOKENS = 2;

/**
 * Tokens of a synthetic message holding `text`, as the sum over its lines plus one per line
 * break. o200k splits text at line breaks before merging, so this never undercounts (a break
 * after punctuation may merge with it, making the true count a little lower).
 */
export function messageTokensUpperBound(role: string, text: string, lines: LineTokenCache): number {
  return messageFramingTokens(role, lines) + linesTokens(text, lines);
}

/** The role tag and framing of a synthetic message: its bound less its lines. */
function messageFramingTokens(role: string, lines: LineTokenCache): number {
  return lines.count(`<${role}>`) + MESSAGE_FRAMING_TOKENS;
}

/** The lines' share of the bound: texts joined by line breaks add up, so parts are counted once. */
function linesTokens(text: string, lines: LineTokenCache): number {
  let tokens = 0;
  for (const line of text.split('\n')) tokens += lines.count(line) + 1;
  return tokens;
}

/** Commands are what agents reuse most after their own prose, so skeleton lines keep them whole up to this width. */
const SKELETON_WIDTH = 200;

/**
 * Reads a new message's lines into the template caches (the templates `buildBand` asks for), so
 * the call that folds a long stretch finds them read: the reading is spread over the calls that
 * append the messages instead of being paid at once by the fold. Changes nothing a fold returns.
 */
export function readAheadLines(message: CanonicalMessage): void {
  if (message.role !== 'tool') proseOf(message);
  for (const call of message.toolCalls) argumentTemplates(call, SKELETON_WIDTH);
  for (const result of message.toolResults) outputTemplates(result);
  messageIdentifiers(message);
}

/** The newest calls keep their skeleton line whatever the budget. */
export function guaranteeNewestCalls(lines: readonly FoldLine[], allowance: number): FoldLine[] {
  const guaranteed = new Set<FoldLine>();
  const commands = new Set<string>();
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (line.kind !== 'call') continue;
    // a command retried is guaranteed once, at its newest run; older runs compete on value
    const command = line.key.slice(0, line.key.lastIndexOf(' → '));
    if (commands.has(command)) continue;
    commands.add(command);
    if (used + line.estimate > allowance) break;
    used += line.estimate;
    guaranteed.add(line);
  }
  return lines.map((line) => (guaranteed.has(line) ? { ...line, mandatory: true } : line));
}

/** The calls whose skeleton did not fit, by tool name: those counted already, then the unpicked call lines. */
function omittedCalls(
  lines: readonly FoldLine[],
  picked: ReadonlySet<FoldLine>,
  before: ReadonlyMap<string, number>,
): Map<string, number> {
  const names = new Map(before);
  for (const line of lines) {
    if (line.kind !== 'call' || picked.has(line)) continue;
    const name = /^▸ ([^:→]+)/.exec(line.text)?.[1]?.trim() ?? 'tool';
    names.set(name, (names.get(name) ?? 0) + 1);
  }
  return names;
}

/** One line that counts the calls whose skeleton did not fit, so every call is accounted for. */
function omittedCallsLine(names: ReadonlyMap<string, number>): string {
  let omitted = 0;
  for (const count of names.values()) omitted += count;
  return omitted
    ? `▸ ${omitted} tool calls not shown: ${[...names].map(([name, count]) => `${name} ×${count}`).join(', ')}`
    : '';
}

/** Where the band's body lines came from (see Band.origins); undefined when a body line would not read back as one line. */
function originsOf(
  picked: readonly FoldLine[],
  firstLine: number,
  omitted: ReadonlyMap<string, number>,
  closet: readonly ClosetEntry[],
): BandOrigins | undefined {
  const lines: BandLineOrigin[] = [];
  for (const group of lineGroups(picked)) {
    if (group.some((line) => line.text.includes('\n'))) return undefined;
    const [{ messageIndex, kind, call }] = group;
    lines.push(call === undefined ? { messageIndex, kind } : { messageIndex, kind, call });
  }
  return {
    firstLine,
    lines,
    omitted: [...omitted],
    closet: closet.map(({ value, kind, messageIndex }) => ({ value, kind, messageIndex })),
  };
}

/** Where a skeleton line's tool name starts, after the `▸ ` mark. */
const CALL_NAME_AT = 2;

/** Closet candidates straight from the fold's lines: every identifier was found once, when the line was read. */
function closetOccurrences(
  messages: readonly CanonicalMessage[],
  lines: readonly FoldLine[],
  closetOnly: readonly ClosetOnlyIdentifier[],
  rawStart: number,
  end: number,
): ClosetOccurrence[] {
  const out: ClosetOccurrence[] = [];
  for (const line of lines) {
    // messages read raw give every identifier of every text, not only those of their candidate lines
    if (line.messageIndex >= rawStart) break;
    for (const { value, kind } of line.identifiers) {
      // `▸ name: key` is the skeleton's own framing: a value read across it is not in the history
      if (line.kind === 'call' && line.text.startsWith(value, CALL_NAME_AT)) continue;
      out.push({ value, kind, messageIndex: line.messageIndex });
    }
  }
  for (const { identifier, messageIndex } of closetOnly)
    if (messageIndex < rawStart) out.push({ value: identifier.value, kind: identifier.kind, messageIndex });
  for (let index = rawStart; index < end; index++)
    for (const { value, kind } of messageIdentifiers(messages[index])) out.push({ value, kind, messageIndex: index });
  return out;
}

/**
 * The line around the last occurrence of `value` from message `from` on: a call's fold lines sit
 * at its message while its output is in the messages after it, up to the next agent message.
 */
function lastLineFrom(
  messages: readonly CanonicalMessage[],
  value: string,
  from: number,
  end: number,
): LineWindow | undefined {
  let found: LineWindow | undefined;
  for (let index = from; index < end; index++) {
    if (index > from && messages[index].role === 'assistant') break;
    found = lastLineAround(messages[index], value) ?? found;
  }
  return found;
}

/** Whether messages [from, end) hold `value` anywhere: the view shows them raw, with its newer line. */
function heldRaw(messages: readonly CanonicalMessage[], value: string, from: number, end: number): boolean {
  return rawTextHolding((index) => messages[index], value, from, end) !== undefined;
}

/** Share of a band that guarantees a skeleton line to the newest calls (a tenth: the record of what was just done); older ones compete on value. */
const NEWEST_CALLS_SHARE = 0.1;
/** Tokens the header's message framing adds to its estimate. */
const INTRO_FRAMING_TOKENS = 4;
/** Kept back from the lines for the one line that counts omitted calls, written after the pick. */
const OMISSION_LINE_RESERVE_TOKENS = 40;
/** Exact tokens per estimated token before a session has measured any band: estimates run high on prose. */
const FIRST_ESTIMATE_SCALE = 0.7;
/** The learned scale never drops below this: a band of a few long identifiers must not talk it down to nothing. */
const MIN_ESTIMATE_SCALE = 0.3;
/** Picks per band: each one corrects the scale and the line budget from the last one's real count. */
const MAX_ATTEMPTS = 5;
/** An over-budget pick takes back its excess and a little more, so the next pick lands under. */
const OVERSHOOT_CORRECTION = 1.05;
/** A pick at this share of its budget or more is close enough: another attempt costs more than it adds. */
const CLOSE_ENOUGH = 0.9;

/** One try at filling the band's budget. */
interface Attempt {
  readonly text: string;
  readonly omitted: string;
  readonly closet: string;
  readonly tokens: number;
  readonly picked: FoldLine[];
  readonly closetEntries: ClosetEntry[];
  readonly omittedNames: ReadonlyMap<string, number>;
}

/**
 * Folds messages [start, end) into one band: skeleton lines for every call plus the most
 * valuable verbatim lines and a closet, sized line by line with the session's counter to fit the budget.
 */
export function buildBand(request: BandRequest): Band {
  const { messages, start, end, budgetTokens, countTokens } = request;
  const header = `[warpfold fold · messages ${start + 1}–${end} · ${request.rawTokens} tokens]`;
  const intro = request.withPreamble ? `${header}\n${FOLD_PREAMBLE}` : header;
  const introTokens = estimateTokens(intro) + INTRO_FRAMING_TOKENS;
  const candidates = candidateLines(
    messages,
    start,
    end,
    SKELETON_WIDTH,
    request.phrases,
    request.weights,
    request.pinned,
    request.sealed,
  );
  const lines = guaranteeNewestCalls(candidates.lines, NEWEST_CALLS_SHARE * (budgetTokens - introTokens));
  const closetOf = prepareCloset(
    closetOccurrences(messages, lines, candidates.closetOnly, candidates.rawStart, end),
    (value, from) => lastLineFrom(messages, value, from, end),
  );
  // a value the raw tail holds again is shown there, on its newer line
  const laterRaw = new Map<string, boolean>();
  const heldLater = (value: string) => {
    let held = laterRaw.get(value);
    if (held === undefined) laterRaw.set(value, (held = heldRaw(messages, value, end, messages.length)));
    return held;
  };
  const closetBudget = Math.max(0, request.closetFraction * budgetTokens);
  const lineTokens = request.lineTokens ?? new LineTokenCache(countTokens);
  // a band's bound is the sum of its parts' (see linesTokens): the intro is the same every attempt
  const framing = messageFramingTokens(request.userRole, lineTokens);
  const introLines = linesTokens(intro, lineTokens);

  let scale = request.estimateScale ?? FIRST_ESTIMATE_SCALE;
  let bestScale = scale;
  let lineBudget = budgetTokens - closetBudget - introTokens - OMISSION_LINE_RESERVE_TOKENS;
  let best: Attempt | undefined;
  // when nothing fits the budget, the smallest attempt (mandatory lines only) still stands; callers check its size
  let smallest: Attempt | undefined;
  let previousText = '';
  const select = createLineSelector(lines, {
    presentLines: request.presentLines,
    presentPhrases: request.presentPhrases,
    recency: request.weights.recency,
  });
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const picked = select(lineBudget, scale);
    const omittedNames = omittedCalls(lines, new Set(picked), candidates.omitted);
    const omitted = omittedCallsLine(omittedNames);
    const shownLines = renderLines(picked);
    const body = [omitted, shownLines].filter(Boolean).join('\n');
    const closetEntries: ClosetEntry[] = [];
    const shownBody = collapse(body);
    const closet = closetOf({
      budgetTokens: closetBudget,
      kept: closetEntries,
      isPresent: heldLater,
      isShown: (line) => shownBody.includes(line),
    });
    const text = [intro, body, closet].filter(Boolean).join('\n');
    const shownTokens = shownLines || picked.length ? linesTokens(shownLines, lineTokens) : 0;
    const tokens =
      framing +
      introLines +
      (omitted ? linesTokens(omitted, lineTokens) : 0) +
      (shownLines ? shownTokens : 0) +
      (closet ? linesTokens(closet, lineTokens) : 0);
    if (!smallest || tokens < smallest.tokens)
      smallest = { text, omitted, closet, tokens, picked, closetEntries, omittedNames };
    const estimated = picked.reduce((sum, line) => sum + line.estimate, 0);
    // the picked lines counted alone: the rest of the band (header, omitted calls, closet) is not theirs to scale
    const real = picked.length ? framing + shownTokens : 0;
    const pickScale = estimated > 0 && real > 0 ? Math.max(MIN_ESTIMATE_SCALE, real / estimated) : scale;
    if (tokens <= budgetTokens && (!best || tokens > best.tokens)) {
      best = { text, omitted, closet, tokens, picked, closetEntries, omittedNames };
      bestScale = pickScale;
    }
    // under budget, the same pick again means the same scale and budget next time: nothing left to try
    if (text === previousText && tokens <= budgetTokens) break;
    if (tokens <= budgetTokens && (tokens >= CLOSE_ENOUGH * budgetTokens || picked.length === lines.length)) break;
    previousText = text;
    scale = pickScale;
    // the lines get what the rest of this pick left them, less any excess
    lineBudget = Math.max(
      0,
      budgetTokens - (tokens - real) - Math.max(0, tokens - budgetTokens) * OVERSHOOT_CORRECTION,
    );
    if (lineBudget === 0 && attempt > 0) break;
  }
  best ??= smallest as Attempt;
  const origins = originsOf(
    best.picked,
    intro.split('\n').length + (best.omitted ? 1 : 0),
    best.omittedNames,
    best.closetEntries,
  );
  const band: Band = {
    start,
    end,
    text: best.text,
    tokens: best.tokens,
    lineKeys: best.picked.map((line) => line.key),
    estimateScale: bestScale,
    ...(origins ? { origins } : {}),
  };
  // the text outside the picked lines: header, omitted calls, closet
  sealContents(band, best.picked, [intro, best.omitted, best.closet].filter(Boolean).join('\n'));
  recordBandBuild(band, lines, best.picked, best.closetEntries, request.rawTokens);
  return band;
}
