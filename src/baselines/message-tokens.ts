import type { ProviderMessage } from '../messages/types.ts';
import { countMessageTokens, createTokenCounter, renderMessage } from '../tokens/index.ts';
import type { BaselineMessage } from './types.ts';

export interface MessageTokenCounter {
  /** Tokens of one message as the engine counts it (`countMessageTokens`): o200k text plus media. */
  messageTokens(message: BaselineMessage): number;
  viewTokens(view: readonly BaselineMessage[]): number;
  textTokens(text: string): number;
  /** `renderMessage`, remembered per message object. */
  renderedMessage(message: BaselineMessage): string;
}

// Strategies re-measure the same message objects on every call: remember each object's
// rendering and size, then each text's tokens, so a replay tokenizes every distinct message once.
export function createMessageTokenCounter(): MessageTokenCounter {
  const textTokens = createTokenCounter();
  const renderingOfObject = new WeakMap<object, string>();
  const tokensOfObject = new WeakMap<object, number>();
  const renderedMessage = (message: BaselineMessage): string => {
    let rendered = renderingOfObject.get(message);
    if (rendered === undefined) {
      rendered = renderMessage(message);
      renderingOfObject.set(message, rendered);
    }
    return rendered;
  };
  const messageTokens = (message: BaselineMessage): number => {
    let tokens = tokensOfObject.get(message);
    if (tokens === undefined) {
      tokens = countMessageTokens(message as ProviderMessage, textTokens);
      tokensOfObject.set(message, tokens);
    }
    return tokens;
  };
  const viewTokens = (view: readonly BaselineMessage[]): number => {
    let total = 0;
    for (const message of view) total += messageTokens(message);
    return total;
  };
  return { messageTokens, viewTokens, textTokens, renderedMessage };
}

let shared = createMessageTokenCounter();

/** Start the strategies' memo afresh, so a timed run pays for its own tokenization. */
export function resetSharedTokenMemo(): void {
  shared = createMessageTokenCounter();
}

export const messageTokens = (message: BaselineMessage): number => shared.messageTokens(message);
export const viewTokens = (view: readonly BaselineMessage[]): number => shared.viewTokens(view);
export const textTokens = (text: string): number => shared.textTokens(text);
export const renderedMessage = (message: BaselineMessage): string => shared.renderedMessage(message);
