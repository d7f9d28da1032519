import { firstLine } from '../fold/key-argument.ts';
import type { TokenCounter } from '../messages/transcript.ts';
import { excerptResult } from './excerpt.ts';
import type { FoldEntry } from './fold-index.ts';
import { RECALL_CARD_CLOSING, recallCardHeader } from './recall-card-frame.ts';

/** True when a result says something: markup-only or empty output is not worth a card. */
export function hasSubstance(entry: FoldEntry): boolean {
  if (entry.isError) return true;
  return entry.resultText.replace(/<\/?[A-Za-z_][\w-]*>/g, '').replace(/\s+/g, '').length >= 24;
}

export interface CardRequest {
  readonly entry: FoldEntry;
  /** The path or identifier that triggered it, shown in the header. */
  readonly key: string;
  /** Strings whose lines the excerpt centres on, best first. */
  readonly terms: readonly (readonly string[])[];
  readonly budgetTokens: number;
  readonly contextLines: number;
  /** Larger results show only the lines around the match, however much budget is left. */
  readonly wholeUpToTokens: number;
  readonly countTokens: TokenCounter;
}

/**
 * One card, verbatim where it matters: header, the call, the result (whole or excerpted around
 * the matched term), the agent's conclusion. Null when not even a useful excerpt fits.
 */
export function renderRecallCard(request: CardRequest): { text: string; tokens: number } | null {
  const { entry, key, countTokens } = request;
  const argument = firstLine(entry.call.keyArgument, 200);
  const lines = [
    recallCardHeader(key, entry.messageIndex),
    `call: ${entry.call.name}${argument ? ` ${argument}` : ''}${entry.isError ? ' → error' : ''}`,
  ];
  const conclusion = entry.conclusion ? `conclusion: ${entry.conclusion}` : '';
  const frame = [...lines, 'result:', conclusion, RECALL_CARD_CLOSING].filter((line) => line !== '').join('\n');
  let excerptBudget = request.budgetTokens - countTokens(frame) - 4;
  // the first term set that occurs wins; later sets are fallbacks (a basename after full paths)
  const terms = request.terms.find((set) => set.some((term) => term !== '' && entry.resultText.includes(term))) ?? [];
  for (let attempt = 0; attempt < 4 && excerptBudget >= 16; attempt++) {
    const excerpt = excerptResult(
      entry.resultText,
      terms,
      excerptBudget,
      request.contextLines,
      countTokens,
      request.wholeUpToTokens,
    );
    const whole = excerpt === entry.resultText;
    const text = [...lines, whole ? 'result:' : 'result (excerpt):', excerpt, conclusion, RECALL_CARD_CLOSING]
      .filter((line) => line !== '')
      .join('\n');
    const tokens = countTokens(text);
    if (tokens <= request.budgetTokens) return { text, tokens };
    excerptBudget -= tokens - request.budgetTokens + 8;
  }
  return null;
}
