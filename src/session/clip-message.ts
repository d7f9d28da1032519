import { foldedOutputCap, liveOutputCap, type FoldConfig } from '../fold/fold-config.ts';
import type { ClippedMessage } from '../freeze/freeze-state.ts';
import { countsReasoningIn, plainMessageText } from '../messages/plain-text.ts';
import type { TokenCounter, Transcript } from '../messages/transcript.ts';
import { readDetachedMessage } from '../messages/turns.ts';
import { clipProviderMessage } from '../messages/write-synthetic.ts';
import { stringLeaves } from '../messages/string-leaves.ts';

/** Headroom on a clipped message's count for the framing its plain rendering leaves out (role, block wrappers). */
const CLIP_FRAMING_TOKENS = 16;
/** First guess of characters per token for a clip's length; the clipped copy is then counted for real. */
const CHARS_PER_TOKEN_GUESS = 3;
/** Each retry keeps this share of the previous length. */
const CLIP_SHRINK = 0.75;
/** Shrinking stops at this many characters: a shorter clip keeps too little to be worth showing. */
const MIN_CLIP_CHARS = 200;

/** Length of the longest string anywhere in `value`: no clip at that length or more changes it. */
function longestString(value: unknown): number {
  let longest = 0;
  for (const text of stringLeaves(value)) longest = Math.max(longest, text.length);
  return longest;
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
 * The longest clip of message `index` (head and tail kept, the cut marked) whose plain rendering
 * counts at most `allowance` tokens, or null; its recorded size adds the framing headroom.
 */
export function clipToFit(
  transcript: Transcript,
  index: number,
  allowance: number,
  countTokens: TokenCounter,
): ClippedMessage | null {
  let maxChars = Math.floor(allowance * CHARS_PER_TOKEN_GUESS);
  // a clip cuts single strings, so at the longest one's length or more it cuts nothing: those
  // lengths are skipped uncounted, and a message of small strings only (a step of thousands of
  // small calls) is never re-read at all
  const longest = longestString(transcript.source(index));
  while (maxChars >= longest && maxChars > MIN_CLIP_CHARS) maxChars = Math.floor(maxChars * CLIP_SHRINK);
  if (maxChars >= longest) return null;
  let tokens = clippedTokens(transcript, index, maxChars, countTokens);
  while (tokens > allowance && maxChars > MIN_CLIP_CHARS) {
    maxChars = Math.floor(maxChars * CLIP_SHRINK);
    tokens = clippedTokens(transcript, index, maxChars, countTokens);
  }
  return tokens > allowance ? null : { maxChars, tokens: tokens + CLIP_FRAMING_TOKENS };
}

/**
 * What a live clip may cut: a tool output (results and no calls of its own), or a call the
 * history has gone on past (its results follow). A Write's whole file was read by the tool
 * already; shown in full it would force the sealed bands to re-fold, as a huge output would.
 */
function mayClipLive(transcript: Transcript, index: number): boolean {
  const message = transcript.messages[index];
  if (message.toolCalls.length > 0) return index < transcript.length - 1;
  return message.toolResults.length > 0;
}

/** Tokens by which the live-clippable messages in [start, end) exceed `capTokens`. */
export function oversizeBetween(transcript: Transcript, start: number, end: number, capTokens: number): number {
  let over = 0;
  for (let i = start; i < end; i++)
    if (transcript.tokens[i] > capTokens && mayClipLive(transcript, i)) over += transcript.tokens[i] - capTokens;
  return over;
}

/** What the raw tail's clippable messages may take, in tokens, under a ceiling. */
export interface LiveOutputShare {
  /** The live step's outputs together: what the model is about to read. */
  readonly cap: number;
  /** Each call the history has gone past: the agent's own copy of what a tool already took. */
  readonly callCap: number;
}

/** What the live step's outputs may take together under `ceilingTokens`, and each answered call. */
export function liveOutputShare(config: FoldConfig, ceilingTokens: number): LiveOutputShare {
  return { cap: liveOutputCap(config, ceilingTokens), callCap: foldedOutputCap(config, ceilingTokens) };
}

/**
 * The raw tail from `cut` with its tool outputs and answered calls clipped (head and tail kept,
 * the cut marked, the identifiers of the cut named) so that together they take at most
 * `share.cap`: the largest are cut to one level, smaller ones stay whole. An answered call's
 * whole-file arguments are cut to `share.callCap` on their own: the tool has taken them already,
 * and in full they would force the sealed bands to re-fold. Both fold whole into the next band.
 */
export function clipOversizedOutputs(
  transcript: Transcript,
  cut: number,
  share: LiveOutputShare,
  countTokens: TokenCounter,
): { tokens: number; clipped: Record<string, ClippedMessage> } {
  const clipped: Record<string, ClippedMessage> = {};
  let tokens = transcript.tokensBetween(cut, transcript.length);
  const clipTo = (index: number, level: number) => {
    // a level too low for any clip to keep readable text leaves the message whole (thousands of parallel results)
    if (transcript.tokens[index] <= level || level * CHARS_PER_TOKEN_GUESS < MIN_CLIP_CHARS) return;
    const clip = clipToFit(transcript, index, Math.floor(level), countTokens);
    if (!clip || clip.tokens >= transcript.tokens[index]) return;
    clipped[String(index)] = clip;
    tokens -= transcript.tokens[index] - clip.tokens;
  };
  const outputs: number[] = [];
  for (let i = cut; i < transcript.length; i++)
    if (mayClipLive(transcript, i)) {
      if (transcript.messages[i].toolCalls.length > 0) clipTo(i, share.callCap);
      else outputs.push(i);
    }
  const level = fillLevel(
    outputs.map((i) => transcript.tokens[i]),
    share.cap,
  );
  for (const i of outputs) clipTo(i, level);
  return { tokens, clipped };
}

/** The level L at which sizes cut to min(size, L) sum to `total` (every size when they fit already). */
function fillLevel(sizes: readonly number[], total: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let left = total;
  for (let i = 0; i < sorted.length; i++) {
    const share = left / (sorted.length - i);
    if (sorted[i] > share) return share;
    left -= sorted[i];
  }
  return Number.POSITIVE_INFINITY;
}
