import type { ClippedMessage } from '../freeze/freeze-state.ts';
import { countsReasoningIn, plainMessageText } from '../messages/plain-text.ts';
import type { TokenCounter, Transcript } from '../messages/transcript.ts';
import { readDetachedMessage } from '../messages/turns.ts';
import { clipProviderMessage } from '../messages/write-synthetic.ts';

/** Headroom on a clipped message's count for the framing its plain rendering leaves out (role, block wrappers). */
const CLIP_FRAMING_TOKENS = 16;
/** First guess of characters per token for a clip's length; the clipped copy is then counted for real. */
const CHARS_PER_TOKEN_GUESS = 3;
/** Each retry keeps this share of the previous length. */
const CLIP_SHRINK = 0.75;
/** Shrinking stops at this many characters: a shorter clip keeps too little to be worth showing. */
const MIN_CLIP_CHARS = 200;

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
export function clipToFit(transcript: Transcript, index: number, allowance: number, countTokens: TokenCounter): ClippedMessage | null {
  let maxChars = Math.floor(allowance * CHARS_PER_TOKEN_GUESS);
  let tokens = clippedTokens(transcript, index, maxChars, countTokens);
  while (tokens > allowance && maxChars > MIN_CLIP_CHARS) {
    maxChars = Math.floor(maxChars * CLIP_SHRINK);
    tokens = clippedTokens(transcript, index, maxChars, countTokens);
  }
  return tokens > allowance ? null : { maxChars, tokens: tokens + CLIP_FRAMING_TOKENS };
}
