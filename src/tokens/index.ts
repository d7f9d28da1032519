export { countTokens, createTokenCounter, type TokenCounterOptions } from './count-tokens.ts';
export {
  contentText,
  toolArgumentText,
  renderMessage,
  renderMessages,
  type RenderableMessage,
  type RenderableToolCall,
} from './render-message.ts';
export {
  PRICE_TABLE,
  DEFAULT_PRICE_MODEL,
  resolveModelPrice,
  findModelPrice,
  modelPriceOf,
  type ModelPrice,
  type CacheProvider,
} from './price-table.ts';
export { leadingIdenticalTokens } from './cached-prefix.ts';
export { callCost, type CallCostInput, type CallCost } from './call-cost.ts';
export {
  billedParts,
  countMessageTokens,
  countPromptTokens,
  type BilledParts,
  type MessageTokenOptions,
  type TextTokenCounter,
} from './message-tokens.ts';
