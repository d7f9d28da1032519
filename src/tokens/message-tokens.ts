import { readDialect } from '../messages/dialects/detect-dialect.ts';
import { FoldInputError } from '../messages/fold-input-error.ts';
import { countsReasoningIn, plainMessageText } from '../messages/plain-text.ts';
import { readMessage } from '../messages/read-message.ts';
import { type AnsweredCall, ToolCallLedger } from '../messages/tool-call-ledger.ts';
import { Transcript } from '../messages/transcript.ts';
import type { Dialect, ProviderMessage } from '../messages/types.ts';
import { renderMessage, type RenderableMessage } from './render-message.ts';

export type TextTokenCounter = (text: string) => number;

export interface MessageTokenOptions {
  /** The history's dialect; read from the message itself when omitted. */
  readonly dialect?: Dialect;
}

/** Where a message is counted alone, its results answer calls outside it: take any call as answered. */
class StandaloneLedger extends ToolCallLedger {
  override close(callId: string | undefined, name: string | undefined): AnsweredCall | undefined {
    return super.close(callId, name) ?? { name: name ?? '', ref: '' };
  }
}

export interface BilledParts {
  /** The text the provider reads: role, prose, thinking, call names with argument values, results, document text. */
  readonly text: string;
  /** Images, audio, video and PDF pages by the provider's formula (src/messages/media-tokens.ts). */
  readonly mediaTokens: number;
}

/**
 * What a provider bills for one message, split into text to tokenize and media tokens, read as
 * FoldSession reads it: thinking text counts, signatures and redacted thinking do not, images and
 * documents cost what the provider's formula says, never their base64. A message the engine
 * cannot read falls back to the plain rendering.
 */
export function billedParts(message: ProviderMessage, options: MessageTokenOptions = {}): BilledParts {
  const dialect = options.dialect ?? readDialect([message]).dialect;
  try {
    const canonical = readMessage(message, 0, dialect, new StandaloneLedger());
    return { text: plainMessageText(canonical, countsReasoningIn(dialect)), mediaTokens: canonical.mediaTokens ?? 0 };
  } catch (error) {
    if (!(error instanceof FoldInputError)) throw error;
    return { text: renderMessage(message as RenderableMessage), mediaTokens: 0 };
  }
}

/**
 * Tokens of one message as the engine counts it: `countTokens` (o200k from `countTokens`, or any
 * counter) over its billed text, plus its media tokens. For plain OpenAI chat messages the text is
 * byte-identical to `renderMessage`, the reference scorer's rendering.
 */
export function countMessageTokens(
  message: ProviderMessage,
  countTokens: TextTokenCounter,
  options: MessageTokenOptions = {},
): number {
  const parts = billedParts(message, options);
  return Math.ceil(countTokens(parts.text)) + parts.mediaTokens;
}

/**
 * Tokens of each message of a whole prompt, exactly as FoldSession counts its history (a
 * Responses step spread over several items is counted once, as one turn). A prompt the engine
 * cannot read is counted message by message.
 */
export function countPromptTokens(messages: readonly ProviderMessage[], countTokens: TextTokenCounter): number[] {
  const transcript = new Transcript(countTokens);
  try {
    transcript.sync(messages);
    return [...transcript.tokens];
  } catch (error) {
    if (!(error instanceof FoldInputError)) throw error;
    const { dialect } = readDialect(messages);
    return messages.map((message) => countMessageTokens(message, countTokens, { dialect }));
  }
}
