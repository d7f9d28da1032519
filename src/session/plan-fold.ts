import { buildBand, type Band } from '../fold/build-band.ts';
import type { FoldConfig } from '../fold/fold-config.ts';
import type { Transcript, TokenCounter } from '../messages/transcript.ts';
import type { RebirthSeedState } from '../freeze/freeze-state.ts';
import { phraseKeys } from '../text/phrase-index.ts';
import { findIdentifiers } from '../closet/nominate-verbatim.ts';

export interface FoldPlanInput {
  readonly transcript: Transcript;
  readonly config: FoldConfig;
  readonly countTokens: TokenCounter;
  /** The view must end at or under this many tokens (in the counter's units). */
  readonly limitTokens: number;
  /** Size decisions (tail, bands) are fractions of this. */
  readonly ceilingTokens: number;
  readonly headEnd: number;
  readonly seed: RebirthSeedState | null;
  readonly bands: readonly Band[];
  readonly coveredEnd: number;
  /** Tokens of one band's acknowledgement message. */
  readonly ackTokens: number;
  readonly userRole: string;
}

export interface FoldPlan {
  readonly bands: readonly Band[];
  readonly coveredEnd: number;
  readonly clipped: Readonly<Record<string, number>>;
  readonly viewTokens: number;
  readonly merged: boolean;
}

/** Leading system messages and the first instruction stay raw while they are small. */
export function chooseHeadEnd(transcript: Transcript, limitTokens: number, headFraction: number): number {
  let systems = 0;
  while (systems < transcript.length && transcript.messages[systems].role === 'system') systems++;
  const candidates = [systems + 1, systems, 0];
  for (const end of candidates) {
    if (end > transcript.length - 1 && end > 0) continue; // the live message never sits in the head
    if (end === systems + 1 && !transcript.messages[systems]?.isTurnBoundary) continue;
    if (!transcript.isSafeCut(end)) continue;
    if (transcript.tokensBetween(0, end) <= headFraction * limitTokens) return end;
  }
  return 0;
}

/** The last index a raw tail may start at: the live step always stays raw. */
function lastCut(transcript: Transcript, from: number): number {
  for (let i = transcript.length - 1; i > from; i--) if (transcript.isSafeCut(i)) return i;
  return from;
}

/** Smallest safe cut in [from, last] whose tail fits `budget`, else `last`. */
function cutForTail(transcript: Transcript, from: number, last: number, budget: number): number {
  const end = transcript.length;
  for (let i = from; i < last; i++) if (transcript.isSafeCut(i) && transcript.tokensBetween(i, end) <= budget) return i;
  return last;
}

interface BandContents {
  readonly lines: readonly string[];
  readonly phrases: readonly number[];
  readonly identifiers: readonly string[];
}

/** What a sealed band holds, worked out once per band (bands never change once sealed). */
const contentsCache = new WeakMap<Band, BandContents>();

function contentsOf(band: Band): BandContents {
  let contents = contentsCache.get(band);
  if (!contents) {
    contents = {
      lines: band.lineKeys,
      phrases: band.lineKeys.flatMap((line) => phraseKeys(line)),
      identifiers: findIdentifiers(band.text).map((identifier) => identifier.value),
    };
    contentsCache.set(band, contents);
  }
  return contents;
}

/** Lines, phrases and identifiers the view already holds before a new band: seed and older bands. */
function presentIn(seedText: string, bands: readonly Band[]) {
  const lines = new Set<string>();
  const phrases = new Set<number>();
  const identifiers = new Set<string>(seedText ? findIdentifiers(seedText).map((identifier) => identifier.value) : []);
  for (const band of bands) {
    const contents = contentsOf(band);
    for (const line of contents.lines) lines.add(line);
    for (const phrase of contents.phrases) phrases.add(phrase);
    for (const identifier of contents.identifiers) identifiers.add(identifier);
  }
  return { lines, phrases, identifiers };
}

/** The newest real user text: its words are pinned into whichever band folds it. */
export function latestInstruction(transcript: Transcript): number {
  for (let i = transcript.length - 1; i >= 0; i--) if (transcript.messages[i].isTurnBoundary) return i;
  return -1;
}

/**
 * Plans an epoch: fold the stretch after the sealed bands into a new band, leaving a raw tail
 * near `tailFraction` of the ceiling; merge all bands into one when they grow past their share or
 * the view still does not fit; halve the tail if needed. Null when even the smallest tail does
 * not fit (the session then clips or starts a hard epoch).
 */
export function planFold(input: FoldPlanInput): FoldPlan | null {
  const { transcript, config, limitTokens, ceilingTokens } = input;
  const end = transcript.length;
  const foldStart = input.seed ? input.seed.end : input.headEnd;
  const fixedTokens = transcript.tokensBetween(0, input.headEnd) + (input.seed?.tokens ?? 0);
  const last = lastCut(transcript, Math.max(input.coveredEnd, foldStart));
  const bandsTokens = (bands: readonly Band[]) => bands.reduce((sum, band) => sum + band.tokens + input.ackTokens, 0);
  const seedText = input.seed?.text ?? '';
  const pinned = latestInstruction(transcript);
  const band = (start: number, stop: number, budget: number, previous: readonly Band[]): Band | null => {
    const rawTokens = transcript.tokensBetween(start, stop);
    if (stop <= start || budget <= 0) return null;
    const present = presentIn(seedText, previous);
    const built = buildBand({
      messages: transcript.messages,
      start,
      end: stop,
      budgetTokens: Math.floor(budget),
      countTokens: input.countTokens,
      userRole: input.userRole,
      presentLines: present.lines,
      presentPhrases: present.phrases,
      phrases: transcript.phrases,
      pinned,
      presentIdentifiers: present.identifiers,
      withPreamble: previous.length === 0 && !input.seed,
      weights: config.lineWeights,
      closetFraction: config.closetFraction,
      rawTokens,
      estimateScale: previous[previous.length - 1]?.estimateScale ?? input.bands[input.bands.length - 1]?.estimateScale,
    });
    // a fold larger than what it replaces is never emitted
    return built.tokens + input.ackTokens < rawTokens ? built : null;
  };

  /**
   * Re-folds the newest bands [j, …) into one, choosing the largest j (fewest bands rewritten)
   * that brings all bands under `mergeFraction` while keeping the re-folded, newer history at
   * least as dense as the older bands left alone; j = 0 re-folds everything.
   */
  const mergeNewest = (bands: readonly Band[], fixed: number, tail: number, from: number, cut: number): Band[] | null => {
    const target = Math.min(config.mergeFraction * ceilingTokens, limitTokens - fixed - tail);
    let kept = bandsTokens(bands);
    for (let j = bands.length - 1; j >= 0; j--) {
      kept -= bands[j].tokens + input.ackTokens;
      if (j === bands.length - 1 && j > 0) continue; // re-folding the newest band alone frees nothing
      const start = j === 0 ? from : bands[j].start;
      const suffixRaw = transcript.tokensBetween(start, cut);
      const room = target - kept - input.ackTokens;
      if (j > 0) {
        const olderDensity = kept / Math.max(1, transcript.tokensBetween(from, start));
        if (room < olderDensity * suffixRaw) continue;
      }
      const one = band(start, cut, Math.min(config.bandRatio * suffixRaw, room), bands.slice(0, j));
      if (one) return [...bands.slice(0, j), one];
    }
    return null;
  };

  for (const tailShare of new Set([config.tailFraction, config.tailFraction / 2, 0])) {
    const cut = cutForTail(transcript, Math.max(input.coveredEnd, foldStart), last, tailShare * ceilingTokens);
    const tailTokens = transcript.tokensBetween(cut, end);
    let bands = input.bands;
    let merged = false;
    if (cut > input.coveredEnd) {
      const raw = transcript.tokensBetween(input.coveredEnd, cut);
      const next = band(input.coveredEnd, cut, Math.min(config.bandRatio * raw, config.bandFraction * ceilingTokens), bands);
      if (next) bands = [...bands, next];
    }
    const covered = bands.length ? bands[bands.length - 1].end : Math.max(input.coveredEnd, foldStart);
    let total = fixedTokens + bandsTokens(bands) + transcript.tokensBetween(covered, end);
    if (bands.length > 1 && (bandsTokens(bands) > config.bandsFraction * ceilingTokens || total > limitTokens)) {
      const merge = mergeNewest(bands, fixedTokens, tailTokens, foldStart, cut);
      if (merge) {
        bands = merge;
        merged = true;
        total = fixedTokens + bandsTokens(bands) + tailTokens;
      }
    }
    const coveredEnd = bands.length ? bands[bands.length - 1].end : input.coveredEnd;
    if (total <= limitTokens) return { bands, coveredEnd, clipped: {}, viewTokens: total, merged };
  }
  return null;
}
