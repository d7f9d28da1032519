import { buildBand } from '../fold/build-band.ts';
import type { Band } from '../fold/band.ts';
import type { ClippedMessage } from '../freeze/freeze-state.ts';
import { countsReasoningIn, plainMessageText } from '../messages/plain-text.ts';
import type { TokenCounter, Transcript } from '../messages/transcript.ts';
import { readDetachedMessage } from '../messages/turns.ts';
import { clipProviderMessage } from '../messages/write-synthetic.ts';
import type { LineValueWeights } from '../fold/line-value.ts';
import { latestInstruction, type FoldPlanInput } from './plan-fold.ts';

export type ClipInput = Pick<FoldPlanInput, 'headEnd' | 'seed' | 'bands' | 'coveredEnd'>;

export interface ClipPlan {
  readonly bands: readonly Band[];
  readonly coveredEnd: number;
  readonly clipped: Readonly<Record<string, ClippedMessage>>;
  readonly viewTokens: number;
}

/**
 * Tokens of message `index` as the view will show it clipped: the clipped copy itself is read
 * and counted, so what a clip cannot cut (thinking, opaque blocks, images) still counts in full.
 */
function clippedTokens(transcript: Transcript, index: number, maxChars: number, countTokens: TokenCounter): number {
  const dialect = transcript.dialect;
  const copy = readDetachedMessage(clipProviderMessage(transcript.source(index), maxChars, dialect), index, dialect);
  return countTokens(plainMessageText(copy, countsReasoningIn(dialect))) + (copy.mediaTokens ?? 0);
}

/**
 * Last resort before a rebirth: when the live step alone is too big (one huge tool result), fold
 * everything before it into one small band and show the live step's largest messages clipped.
 */
export function clipTail(transcript: Transcript, input: ClipInput, limit: number, ackTokens: number, countTokens: TokenCounter, weights: LineValueWeights): ClipPlan | null {
  const end = transcript.length;
  let cut = end - 1;
  while (cut > input.coveredEnd && !transcript.isSafeCut(cut)) cut--;
  const foldStart = input.seed ? input.seed.end : input.headEnd;
  const fixed = transcript.tokensBetween(0, input.headEnd) + (input.seed?.tokens ?? 0);
  let bands: readonly Band[] = [];
  if (cut > foldStart) {
    const band = buildBand({
      messages: transcript.messages, start: foldStart, end: cut, budgetTokens: Math.floor(Math.min(0.25 * limit, 0.45 * transcript.tokensBetween(foldStart, cut))),
      countTokens, userRole: 'user', presentLines: new Set(), presentPhrases: new Set(), phrases: transcript.phrases, pinned: latestInstruction(transcript),
      presentIdentifiers: new Set(), withPreamble: !input.seed, weights, closetFraction: 0.1, rawTokens: transcript.tokensBetween(foldStart, cut),
    });
    // a fold no smaller than what it replaces is never emitted
    if (band.tokens + ackTokens < transcript.tokensBetween(foldStart, cut)) bands = [band];
    else cut = input.coveredEnd;
  } else cut = Math.max(cut, input.coveredEnd);
  const bandTokens = bands.reduce((sum, band) => sum + band.tokens + ackTokens, 0);
  let room = limit - fixed - bandTokens;
  const order = [];
  for (let i = cut; i < end; i++) order.push(i);
  order.sort((a, b) => transcript.tokens[b] - transcript.tokens[a]);
  let tail = transcript.tokensBetween(cut, end);
  const clipped: Record<string, ClippedMessage> = {};
  for (const index of order) {
    if (tail <= room) break;
    const others = tail - transcript.tokens[index];
    const allowance = Math.floor((room - others) * 0.9);
    if (allowance < 64) continue;
    let maxChars = allowance * 3;
    let tokens = clippedTokens(transcript, index, maxChars, countTokens);
    while (tokens > allowance && maxChars > 200) {
      maxChars = Math.floor(maxChars * 0.75);
      tokens = clippedTokens(transcript, index, maxChars, countTokens);
    }
    if (tokens > allowance) continue;
    clipped[String(index)] = { maxChars, tokens: tokens + 16 };
    tail = others + tokens + 16;
  }
  if (tail > room) return null;
  return { bands, coveredEnd: bands.length ? cut : input.coveredEnd, clipped, viewTokens: fixed + bandTokens + tail };
}
