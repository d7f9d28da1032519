import { prepareCloset, type ClosetOccurrence } from '../closet/render-closet.ts';
import { rawTextHolding } from '../messages/raw-text-holding.ts';
import { sealContents } from './band-contents.ts';
import { recordBandBuild, type ClosetEntry } from './band-receipt.ts';
import type { TokenCounter } from '../messages/transcript.ts';
import type { CanonicalMessage } from '../messages/types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { candidateLines, type ClosetOnlyIdentifier } from './candidate-lines.ts';
import { argumentTemplates, outputTemplates, proseOf } from './line-templates.ts';
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
  /** Share of the closet given to windows of the words around a value. */
  readonly closetWindowFraction: number;
  /** Share of the band that guarantees skeleton lines to the newest calls; older ones compete on value. */
  readonly callShare: number;
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
export const LINE_TOKEN_CACHE_CAPACITY = 8_192;

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
    this.young.set(line, tokens);
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
  let tokens = lines.count(`<${role}>`) + MESSAGE_FRAMING_TOKENS;
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

const LANE: Record<FoldLine['kind'], ClosetOccurrence['lane']> = {
  user: 'user',
  assistant: 'agent',
  reasoning: 'agent',
  call: 'agent',
  argument: 'agent',
  output: 'tool',
  error: 'tool',
};

/** Where a skeleton line's tool name starts, after the `▸ ` mark. */
const CALL_NAME_AT = 2;

/** Closet candidates straight from the fold's lines: every identifier was found once, when the line was read. */
function closetOccurrences(
  lines: readonly FoldLine[],
  shapes: readonly string[],
  closetOnly: readonly ClosetOnlyIdentifier[],
): ClosetOccurrence[] {
  const out: ClosetOccurrence[] = [];
  lines.forEach((line, index) => {
    // a template's shape was read with the line; a skeleton line has none of its own
    const shape = line.kind === 'call' ? undefined : shapes[index];
    for (const { value, kind } of line.identifiers) {
      // `▸ name: key` is the skeleton's own framing: a value read across it is not in the history
      if (line.kind === 'call' && line.text.startsWith(value, CALL_NAME_AT)) continue;
      out.push({
        value,
        kind,
        source: line.text,
        messageIndex: line.messageIndex,
        lane: LANE[line.kind],
        ...(shape === undefined ? {} : { shape }),
      });
    }
  });
  for (const { identifier, source, messageIndex } of closetOnly)
    out.push({ value: identifier.value, kind: identifier.kind, source, messageIndex, lane: 'tool' });
  return out;
}

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
  const lines = guaranteeNewestCalls(candidates.lines, request.callShare * (budgetTokens - introTokens));
  const closetOf = prepareCloset(
    closetOccurrences(lines, candidates.shapes, candidates.closetOnly),
    start,
    end,
    (value, from) => rawTextHolding((index) => messages[index], value, from, end)?.text,
  );
  const closetBudget = Math.max(0, request.closetFraction * budgetTokens);
  const lineTokens = request.lineTokens ?? new LineTokenCache(countTokens);
  const measure = (text: string) => messageTokensUpperBound(request.userRole, text, lineTokens);

  let scale = request.estimateScale ?? FIRST_ESTIMATE_SCALE;
  let bestScale = scale;
  let lineBudget = budgetTokens - closetBudget - introTokens - OMISSION_LINE_RESERVE_TOKENS;
  let best: Attempt | undefined;
  // when nothing fits the budget, the smallest attempt (mandatory lines only) still stands; callers check its size
  let smallest: Attempt | undefined;
  let previousText = '';
  let previousEstimate = -1;
  const select = createLineSelector(lines, {
    presentLines: request.presentLines,
    presentPhrases: request.presentPhrases,
    recency: request.weights.recency,
  });
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const picked = select(lineBudget, scale);
    const omittedNames = omittedCalls(lines, new Set(picked), candidates.omitted);
    const omitted = omittedCallsLine(omittedNames);
    // each picked value and the newest message a picked line shows it at
    const pickedIdentifiers = new Map<string, number>();
    for (const line of picked)
      for (const { value } of line.identifiers)
        pickedIdentifiers.set(value, Math.max(pickedIdentifiers.get(value) ?? -1, line.messageIndex));
    const body = [omitted, renderLines(picked)].filter(Boolean).join('\n');
    const closetEntries: ClosetEntry[] = [];
    const closet = closetOf({
      budgetTokens: closetBudget,
      windowFraction: request.closetWindowFraction,
      kept: closetEntries,
      isPresent: (value) => request.presentIdentifiers.has(value) || pickedIdentifiers.has(value),
      isShownAt: (value, messageIndex) => (pickedIdentifiers.get(value) ?? -1) >= messageIndex,
    });
    const text = [intro, body, closet].filter(Boolean).join('\n');
    const tokens = measure(text);
    if (!smallest || tokens < smallest.tokens)
      smallest = { text, omitted, closet, tokens, picked, closetEntries, omittedNames };
    const estimated = picked.reduce((sum, line) => sum + line.estimate, 0);
    const real = tokens - introTokens - (closet ? estimateTokens(closet) : 0);
    if (tokens <= budgetTokens && (!best || tokens > best.tokens)) {
      best = { text, omitted, closet, tokens, picked, closetEntries, omittedNames };
      bestScale = estimated > 0 && real > 0 ? real / estimated : scale;
    }
    // under budget, the same pick again means the same scale and budget next time: nothing left to try
    if (text === previousText && estimated === previousEstimate && tokens <= budgetTokens) break;
    previousText = text;
    previousEstimate = estimated;
    if (estimated > 0 && real > 0) scale = Math.max(MIN_ESTIMATE_SCALE, real / estimated);
    if (tokens > budgetTokens) lineBudget -= (tokens - budgetTokens) * OVERSHOOT_CORRECTION;
    else if (tokens >= CLOSE_ENOUGH * budgetTokens || picked.length === lines.length) break;
    if (lineBudget <= 0) lineBudget = 0;
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
