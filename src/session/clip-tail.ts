import { bandRequest } from '../fold/band-request.ts';
import { buildBand } from '../fold/build-band.ts';
import type { Band } from '../fold/band.ts';
import type { FoldConfig } from '../fold/fold-config.ts';
import type { ClippedMessage } from '../freeze/freeze-state.ts';
import type { TokenCounter, Transcript } from '../messages/transcript.ts';
import { clipOversizedOutputs, clipToFit, liveOutputShare } from './clip-message.ts';
import { lastCut, latestInstruction, type FoldPlanInput } from './plan-fold.ts';

export type ClipInput = Pick<FoldPlanInput, 'headEnd' | 'seed' | 'bands' | 'coveredEnd'>;

export interface ClipPlan {
  readonly bands: readonly Band[];
  readonly coveredEnd: number;
  readonly clipped: Readonly<Record<string, ClippedMessage>>;
  readonly viewTokens: number;
}

/** The lone band before a huge live step gives way to it, down to this share of the limit: it is the only record of everything before. */
const LAST_RESORT_BAND_FRACTION = 0.1;
/** That band is the only record of everything before the live step: its closet takes at least this share, more when the config gives every band more. */
const LAST_RESORT_CLOSET_FRACTION = 0.1;
/** Each clip leaves this share of its room unused: the clipped copy's count comes from the plain rendering, the provider's may run over. */
const CLIP_ROOM_SHARE = 0.9;
/** A message is not clipped to fewer tokens than this: too little would be left to read. */
const MIN_CLIP_TOKENS = 64;

/**
 * Last resort before a rebirth: when the live step alone is too big (one huge tool result), fold
 * everything before it into one small band and show the live step's largest messages clipped.
 */
export function clipTail(
  transcript: Transcript,
  input: ClipInput,
  limit: number,
  ackTokens: number,
  countTokens: TokenCounter,
  config: FoldConfig,
): ClipPlan | null {
  const end = transcript.length;
  let cut = lastCut(transcript, input.coveredEnd);
  const foldStart = input.seed ? input.seed.end : input.headEnd;
  const fixed = transcript.tokensBetween(0, input.headEnd) + (input.seed?.tokens ?? 0);
  // the live outputs are held to their share first, as at any epoch; the band takes what head and live step leave
  const liveFrom = (from: number) =>
    clipOversizedOutputs(transcript, from, liveOutputShare(config, limit), countTokens);
  let live = liveFrom(cut);
  const liveCut = cut;
  let bands: readonly Band[] = [];
  if (cut > foldStart) {
    const rawTokens = transcript.tokensBetween(foldStart, cut);
    const room = limit - fixed - live.tokens - ackTokens;
    const budgetTokens = Math.min(Math.max(room, LAST_RESORT_BAND_FRACTION * limit), config.bandRatio * rawTokens);
    const band = buildBand(
      bandRequest({
        transcript,
        config,
        countTokens,
        start: foldStart,
        end: cut,
        budgetTokens,
        pinned: latestInstruction(transcript),
        withPreamble: !input.seed,
        closetFraction: Math.max(config.closetFraction, LAST_RESORT_CLOSET_FRACTION),
      }),
    );
    // a fold no smaller than what it replaces is never emitted: the sealed bands stay, with the
    // raw tail they end at (dropping them would leave a gap the view skips and restore refuses)
    if (band.tokens + ackTokens < rawTokens) bands = [band];
    else [bands, cut] = [input.bands, input.coveredEnd];
  } else [bands, cut] = [input.bands, Math.max(cut, input.coveredEnd)];
  const bandTokens = bands.reduce((sum, band) => sum + band.tokens + ackTokens, 0);
  if (cut !== liveCut) live = liveFrom(cut);
  const room = limit - fixed - bandTokens;
  // what still does not fit is cut to the room, largest first
  const shownTokens = (index: number) => live.clipped[String(index)]?.tokens ?? transcript.tokens[index];
  const order = [];
  for (let i = cut; i < end; i++) order.push(i);
  order.sort((a, b) => shownTokens(b) - shownTokens(a));
  let tail = live.tokens;
  const clipped: Record<string, ClippedMessage> = { ...live.clipped };
  for (const index of order) {
    if (tail <= room) break;
    const others = tail - shownTokens(index);
    const allowance = Math.floor((room - others) * CLIP_ROOM_SHARE);
    if (allowance < MIN_CLIP_TOKENS) continue;
    const clip = clipToFit(transcript, index, allowance, countTokens);
    if (!clip || clip.tokens >= shownTokens(index)) continue;
    clipped[String(index)] = clip;
    tail = others + clip.tokens;
  }
  if (tail > room) return null;
  return { bands, coveredEnd: cut, clipped, viewTokens: fixed + bandTokens + tail };
}
