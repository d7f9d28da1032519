import { contentsOf } from '../fold/band-contents.ts';
import { bandRequest, type PresentInView } from '../fold/band-request.ts';
import { buildBand, type LineTokenCache } from '../fold/build-band.ts';
import type { Band } from '../fold/band.ts';
import type { FoldConfig } from '../fold/fold-config.ts';
import type { Transcript, TokenCounter } from '../messages/transcript.ts';
import type { CanonicalMessage } from '../messages/types.ts';
import type { ClippedMessage, RebirthSeedState } from '../freeze/freeze-state.ts';
import { findIdentifiers } from '../text/find-identifiers.ts';
import { addPhraseKeys } from '../text/phrase-index.ts';
import { leadingSystemCount } from '../messages/leading-system.ts';
import { clipOversizedOutputs, liveOutputShare, oversizeBetween } from './clip-message.ts';

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
  readonly lineTokens: LineTokenCache;
}

export interface FoldPlan {
  readonly bands: readonly Band[];
  readonly coveredEnd: number;
  readonly clipped: Readonly<Record<string, ClippedMessage>>;
  readonly viewTokens: number;
  readonly merged: boolean;
}

/** Leading system messages and the first instruction stay raw while they are small. */
export function chooseHeadEnd(transcript: Transcript, limitTokens: number, headFraction: number): number {
  const systems = leadingSystemCount(transcript.messages);
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

/** Membership across several sets without copying them into one. */
function unionOf<T>(sets: ReadonlyArray<Pick<ReadonlySet<T>, 'has'>>): Pick<ReadonlySet<T>, 'has'> {
  // a plain loop: this is asked for every phrase of every candidate line
  return {
    has: (value: T) => {
      for (const set of sets) if (set.has(value)) return true;
      return false;
    },
  };
}

// a head message never changes once read, so its phrases are worked out once per session
const messagePhrases = new WeakMap<CanonicalMessage, ReadonlySet<number>>();

function phrasesOf(message: CanonicalMessage): ReadonlySet<number> {
  let phrases = messagePhrases.get(message);
  if (!phrases) {
    const keys = new Set<number>();
    for (const text of [message.text, message.reasoning, ...message.toolResults.map((result) => result.text)])
      addPhraseKeys(text, keys);
    messagePhrases.set(message, (phrases = keys));
  }
  return phrases;
}

/** Phrases of the raw head (system prompt, first instruction): always in view, so folds need not repeat them. */
function headPhrases(transcript: Transcript, headEnd: number): Pick<ReadonlySet<number>, 'has'> {
  return unionOf(transcript.messages.slice(0, headEnd).map(phrasesOf));
}

/** Lines, phrases and identifiers the view already holds before a new band: head, seed and older bands. */
function presentIn(
  seedIdentifiers: ReadonlySet<string>,
  bands: readonly Band[],
  head: Pick<ReadonlySet<number>, 'has'>,
): PresentInView {
  const contents = bands.map(contentsOf);
  return {
    lines: unionOf(contents.map((item) => item.lines)),
    phrases: unionOf([head, ...contents.map((item) => item.phrases)]),
    identifiers: unionOf([seedIdentifiers, ...contents.map((item) => item.identifiers)]),
  };
}

/**
 * Raw history one merge re-reads, in ceilings. Re-reading the raw messages of the bands a merge
 * re-folds keeps it as good as a first fold: re-folding every band from the lines it shows
 * instead lost far in-context on dev (98.7% to 98.2% at 16,000, 97.3% to 94.2% at 8,000) and on
 * dev2 (98.8% to 96.3% at 16,000). But the cost grows with the history: on a 1,500-turn session
 * a merge of every band took 1.8 s. So a merge re-reads its newest bands while they and the new
 * stretch total at most this many ceilings, and re-folds older ones from their lines. At 8 (with
 * REFOLD_RAW_MIN_TOKENS) every dev and dev2 figure at 2,000 to 32,000 is unchanged; at 4
 * ceilings, far in-context at 8,000 fell.
 */
export const REFOLD_RAW_CEILINGS = 8;
/**
 * Below 16,000 tokens eight ceilings are little work, and small bands lean on re-reading: with
 * the bound at 8 ceilings, far in-context on dev fell from 81.2% to 78.9% at 4,000 and from 64.6%
 * to 58.3% at 2,000. So a merge may always re-read this many tokens.
 */
export const REFOLD_RAW_MIN_TOKENS = 128_000;

/** Raw tokens one merge may re-read at a ceiling. */
export function refoldRawLimit(ceilingTokens: number): number {
  return Math.max(REFOLD_RAW_CEILINGS * ceilingTokens, REFOLD_RAW_MIN_TOKENS);
}

/**
 * Of the sealed bands a merge of [start, stop) re-folds (oldest first, from `start`), the older
 * ones it re-folds from the lines they show: all but the newest that fit, with the new stretch,
 * in `refoldRawLimit` raw tokens. Empty when it re-reads every band, or when one it would
 * re-fold from its lines has no origins (a band saved before them).
 */
function refoldedFromLines(
  transcript: Transcript,
  refolded: readonly Band[],
  start: number,
  stop: number,
  ceilingTokens: number,
): readonly Band[] {
  if (!refolded.length || refolded[0].start !== start) return [];
  const limit = refoldRawLimit(ceilingTokens);
  let read = transcript.tokensBetween(refolded[refolded.length - 1].end, stop);
  let first = refolded.length;
  while (first > 0) {
    const band = refolded[first - 1];
    const tokens = transcript.tokensBetween(band.start, band.end);
    if (read + tokens > limit) break;
    read += tokens;
    first--;
  }
  const fromLines = refolded.slice(0, first);
  return fromLines.every((band) => band.origins) ? fromLines : [];
}

/** The newest real user text: its words are pinned into whichever band folds it. */
export function latestInstruction(transcript: Transcript): number {
  for (let i = transcript.length - 1; i >= 0; i--) if (transcript.messages[i].isTurnBoundary) return i;
  return -1;
}

/**
 * Plans an epoch: fold the stretch after the sealed bands into a new band, leaving a raw tail
 * near `tailFraction` of the ceiling; re-fold the newest bands (all of them only when newer history would end up sparser than older) when they grow past their share or
 * the view still does not fit; halve the tail if needed. Null when even the smallest tail does
 * not fit (the session then clips or starts a hard epoch).
 */
export function planFold(input: FoldPlanInput): FoldPlan | null {
  const { transcript, config, limitTokens, ceilingTokens } = input;
  const foldStart = input.seed ? input.seed.end : input.headEnd;
  const fixedTokens = transcript.tokensBetween(0, input.headEnd) + (input.seed?.tokens ?? 0);
  const last = lastCut(transcript, Math.max(input.coveredEnd, foldStart));
  const bandsTokens = (bands: readonly Band[]) => bands.reduce((sum, band) => sum + band.tokens + input.ackTokens, 0);
  const seedIdentifiers = new Set<string>(
    input.seed ? findIdentifiers(input.seed.text).map((identifier) => identifier.value) : [],
  );
  const pinned = latestInstruction(transcript);
  const head = headPhrases(transcript, input.headEnd);
  const outputShare = liveOutputShare(config, ceilingTokens);
  const band = (start: number, stop: number, budget: number, previous: readonly Band[]): Band | null => {
    if (stop <= start || budget <= 0) return null;
    const built = buildBand(
      bandRequest({
        transcript,
        config,
        countTokens: input.countTokens,
        start,
        end: stop,
        budgetTokens: budget,
        pinned,
        withPreamble: previous.length === 0 && !input.seed,
        present: presentIn(seedIdentifiers, previous, head),
        estimateScale:
          previous[previous.length - 1]?.estimateScale ?? input.bands[input.bands.length - 1]?.estimateScale,
        lineTokens: input.lineTokens,
        sealed: refoldedFromLines(transcript, input.bands.slice(previous.length), start, stop, ceilingTokens),
      }),
    );
    // a fold larger than what it replaces is never emitted
    return built.tokens + input.ackTokens < transcript.tokensBetween(start, stop) ? built : null;
  };

  /**
   * One new band over [start of bands j…, cut): j = bands.length folds only the new stretch;
   * smaller j also re-folds the newest bands with it (a merge). The largest j that fits wins, so
   * the fewest sealed bands are rewritten. A merge keeps the re-folded, newer history at least as
   * dense as the older bands it leaves alone; j = 0 re-folds everything.
   */
  const foldFrom = (cut: number, tailTokens: number): { bands: Band[]; merged: boolean } | null => {
    const bands = input.bands;
    const newStart = Math.max(input.coveredEnd, foldStart);
    const mergeTarget = Math.min(config.mergeFraction * ceilingTokens, limitTokens - fixedTokens - tailTokens);
    let kept = bandsTokens(bands);
    for (let j = bands.length; j >= 0; j--) {
      if (j < bands.length) kept -= bands[j].tokens + input.ackTokens;
      if (j === bands.length - 1 && j > 0 && cut <= newStart) continue; // re-folding one band alone frees nothing
      const start = j === bands.length ? newStart : j === 0 ? foldStart : bands[j].start;
      if (cut <= start) continue;
      const raw = transcript.tokensBetween(start, cut);
      // a band never holds more of one huge output than the view shows of it live
      const shown = raw - oversizeBetween(transcript, start, cut, outputShare.cap);
      let budget: number;
      if (j === bands.length) {
        budget = Math.min(config.bandRatio * shown, config.bandFraction * ceilingTokens);
        if (kept + budget + input.ackTokens > config.bandsFraction * ceilingTokens) continue;
      } else {
        const room = mergeTarget - kept - input.ackTokens;
        if (j > 0 && room < (kept / Math.max(1, transcript.tokensBetween(foldStart, start))) * raw) continue;
        // a merge that re-folds every band leaves part of the target free, so the next merge can
        // re-fold only the newest bands into it instead of every band again
        budget = Math.min(config.bandRatio * shown, j === 0 ? room * (config.fullMergeShare ?? 1) : room);
      }
      const one = band(start, cut, budget, bands.slice(0, j));
      if (!one || fixedTokens + kept + one.tokens + input.ackTokens + tailTokens > limitTokens) continue;
      return { bands: [...bands.slice(0, j), one], merged: j < bands.length };
    }
    return null;
  };

  for (const tailShare of new Set([config.tailFraction, config.tailFraction / 2, 0])) {
    const cut = cutForTail(transcript, Math.max(input.coveredEnd, foldStart), last, tailShare * ceilingTokens);
    const tail = clipOversizedOutputs(transcript, cut, outputShare, input.countTokens);
    const folded = foldFrom(cut, tail.tokens);
    if (folded) {
      const viewTokens = fixedTokens + bandsTokens(folded.bands) + tail.tokens;
      return { bands: folded.bands, coveredEnd: cut, clipped: tail.clipped, viewTokens, merged: folded.merged };
    }
  }
  return null;
}
