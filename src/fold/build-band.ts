import { renderCloset } from '../closet/render-closet.ts';
import type { TokenCounter } from '../messages/transcript.ts';
import type { CanonicalMessage } from '../messages/types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { candidateLines } from './candidate-lines.ts';
import type { FoldLine } from './fold-line.ts';
import { renderLines } from './render-lines.ts';
import { selectLines } from './select-lines.ts';
import type { LineValueWeights } from './line-value.ts';
import type { PhraseIndex } from '../text/phrase-index.ts';

export const FOLD_PREAMBLE =
  'Earlier turns, folded oldest first. » lines are the user\'s words; plain lines are your own, verbatim; ∴ your reasoning; ' +
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
  readonly presentLines: ReadonlySet<string>;
  /** Phrase keys the view already holds before this band: lines made of them are worth less. */
  readonly presentPhrases: ReadonlySet<number>;
  readonly phrases: PhraseIndex;
  /** Message whose words are kept whatever the budget (the live instruction), or -1. */
  readonly pinned: number;
  /** Text the view already holds before this band, for the closet's presence test. */
  readonly presentText: string;
  readonly withPreamble: boolean;
  readonly weights: LineValueWeights;
  readonly closetFraction: number;
  readonly rawTokens: number;
  /** Exact tokens per estimated token seen in earlier bands: a first guess that saves attempts. */
  readonly estimateScale?: number;
}

export interface Band {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Tokens of the synthetic user message that carries the band, as counted by the session. */
  readonly tokens: number;
  readonly lineKeys: readonly string[];
  /** Exact tokens per estimated token of the picked lines, for the next band's first guess. */
  readonly estimateScale: number;
}

/** Commands are what agents reuse most after their own prose, so skeleton lines keep them whole up to this width. */
const SKELETON_WIDTH = 200;

/** When call lines alone overrun their share, the oldest calls (and lines around them) collapse into one count line. */
function collapseCalls(lines: FoldLine[], allowance: number): FoldLine[] {
  let mandatory = lines.filter((line) => line.mandatory).reduce((sum, line) => sum + line.estimate, 0);
  if (mandatory <= allowance) return lines;
  const names = new Map<string, number>();
  let dropped = 0;
  let lastDropped = -1;
  for (const line of lines) {
    if (mandatory <= allowance) break;
    if (!line.mandatory) continue;
    mandatory -= line.estimate;
    lastDropped = line.order;
    dropped++;
    const name = /^▸ ([^:→]+)/.exec(line.text)?.[1]?.trim() ?? 'tool';
    names.set(name, (names.get(name) ?? 0) + 1);
  }
  const text = `▸ ${dropped} earlier tool calls, lines omitted: ${[...names].map(([name, count]) => `${name} ×${count}`).join(', ')}`;
  const summary: FoldLine = { ...lines[0], kind: 'call', text, key: text, lineId: -1, fragment: 0, estimate: estimateTokens(text) + 1, mandatory: true, phrases: [], identifierValue: 0, identifiers: [], wordValue: 0 };
  return [summary, ...lines.filter((line) => line.order > lastDropped)];
}

/**
 * Folds messages [start, end) into one band: skeleton lines for every call plus the most
 * valuable verbatim lines and a closet, measured with the session's counter to fit the budget.
 */
export function buildBand(request: BandRequest): Band {
  const { messages, start, end, budgetTokens, countTokens } = request;
  const header = `[warpfold fold · messages ${start + 1}–${end} · ${request.rawTokens.toLocaleString('en-US')} tokens folded]`;
  const intro = request.withPreamble ? `${header}\n${FOLD_PREAMBLE}` : header;
  const introTokens = estimateTokens(intro) + 4;
  const lines = collapseCalls(candidateLines(messages, start, end, SKELETON_WIDTH, request.phrases, request.weights, request.pinned), 0.6 * (budgetTokens - introTokens));
  const closetBudget = Math.max(0, request.closetFraction * budgetTokens);
  const measure = (text: string) => countTokens(`<${request.userRole}>\n${text}\n`);

  let scale = request.estimateScale ?? 0.7;
  let bestScale = scale;
  let lineBudget = budgetTokens - closetBudget - introTokens;
  let best: { text: string; tokens: number; picked: FoldLine[] } | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const picked = selectLines(lines, lineBudget, { presentLines: request.presentLines, presentPhrases: request.presentPhrases, recency: request.weights.recency }, scale);
    const body = renderLines(picked);
    const closet = renderCloset(messages, start, end, {
      budgetTokens: closetBudget,
      isPresent: (value) => body.includes(value) || request.presentText.includes(value),
    });
    const text = [intro, body, closet].filter(Boolean).join('\n');
    const tokens = measure(text);
    const estimated = picked.reduce((sum, line) => sum + line.estimate, 0);
    const real = tokens - introTokens - (closet ? estimateTokens(closet) : 0);
    if (tokens <= budgetTokens && (!best || tokens > best.tokens)) {
      best = { text, tokens, picked };
      bestScale = estimated > 0 && real > 0 ? real / estimated : scale;
    }
    if (estimated > 0 && real > 0) scale = Math.max(0.3, real / estimated);
    if (tokens > budgetTokens) lineBudget -= (tokens - budgetTokens) * 1.05;
    else if (tokens >= 0.9 * budgetTokens || picked.length === lines.length) break;
    if (lineBudget <= 0) break;
  }
  if (!best) {
    const text = intro;
    best = { text, tokens: measure(text), picked: [] };
  }
  return { start, end, text: best.text, tokens: best.tokens, lineKeys: best.picked.map((line) => line.key), estimateScale: bestScale };
}
