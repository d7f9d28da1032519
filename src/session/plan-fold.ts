import { contentsOf } from '../fold/band-contents.ts';
import { bandRequest, type PresentInView } from '../fold/band-request.ts';
import { buildBand, type LineTokenCache } from '../fold/build-band.ts';
import type { Band } from '../fold/band.ts';
import { foldedOutputCap, mergeTargetTokens, type FoldConfig } from '../fold/fold-config.ts';
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

/**
 * The last index a raw tail may start at: the live step (every message since the last assistant
 * message, what the model is about to read) always stays raw, from the safe cut at or before it.
 */
export function lastCut(transcript: Transcript, from: number): number {
  let live = transcript.length - 1;
  while (live > from && transcript.messages[live - 1].role !== 'assistant') live--;
  for (let i = live; i > from; i--) if (transcript.isSafeCut(i)) return i;
  return from;
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
 * Raw history one merge re-reads, in ceilings: re-reading the raw messages of the bands it
 * re-folds keeps a merge as good as a first fold, but the work grows with the history, so a merge
 * re-reads its newest bands while they and the new stretch total at most this many ceilings, and
 * re-folds older ones from their lines (history in docs/tuning.md).
 */
export const REFOLD_RAW_CEILINGS = 8;
/** Small windows lean on re-reading, and eight of them are little work: a merge may always re-read this many tokens. */
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
 * Plans an epoch: fold everything after the sealed bands but the live step into a new band; when
 * the bands would outgrow their share, or the view its limit, re-fold every band with it down to
 * the merge target. Null when even that does not fit (the session then clips or starts a hard epoch).
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
   * One new band over the new stretch, appended after the sealed bands; when the bands would
   * outgrow their room (or the view its limit), one band over everything folded instead (a merge),
   * down to the merge target.
   */
  const foldFrom = (cut: number, tailTokens: number): { bands: Band[]; merged: boolean } | null => {
    const bands = input.bands;
    const newStart = Math.max(input.coveredEnd, foldStart);
    const mergeTarget = Math.min(mergeTargetTokens(config, ceilingTokens), limitTokens - fixedTokens - tailTokens);
    for (const j of new Set([bands.length, 0])) {
      const kept = j === 0 ? 0 : bandsTokens(bands);
      const start = j === 0 ? foldStart : newStart;
      if (cut <= start) continue;
      // a band sizes one huge output as one step of the working set
      const shown =
        transcript.tokensBetween(start, cut) -
        oversizeBetween(transcript, start, cut, foldedOutputCap(config, ceilingTokens));
      // a band over everything, first or merged, takes the merge target at most
      const budget = Math.min(
        config.bandRatio * shown,
        j === 0 ? mergeTarget - input.ackTokens : Number.POSITIVE_INFINITY,
      );
      if (j > 0 && kept + budget + input.ackTokens > config.bandsFraction * ceilingTokens) continue;
      const one = band(start, cut, budget, bands.slice(0, j));
      if (!one || fixedTokens + kept + one.tokens + input.ackTokens + tailTokens > limitTokens) continue;
      return { bands: [...bands.slice(0, j), one], merged: j < bands.length };
    }
    return null;
  };

  // only the live step stays raw: the newest stretch folds at the highest fidelity instead
  const tail = clipOversizedOutputs(transcript, last, outputShare, input.countTokens);
  const folded = foldFrom(last, tail.tokens);
  if (!folded) return null;
  const viewTokens = fixedTokens + bandsTokens(folded.bands) + tail.tokens;
  return { bands: folded.bands, coveredEnd: last, clipped: tail.clipped, viewTokens, merged: folded.merged };
}
