/** OpenAI prompt-cache helpers: a stable `prompt_cache_key`, static-first requests, usage for the next `prepare`. */
export { openAIPromptCacheKey, OPENAI_PROMPT_CACHE_KEY_MAX_CHARS } from './prompt-cache-key.ts';
export {
  prepareOpenAIChatRequest,
  prepareOpenAIResponsesRequest,
  type OpenAIChatRequestOptions,
  type OpenAIResponsesRequestOptions,
} from './prepare-openai-request.ts';
export { readOpenAIUsage, type OpenAIUsage } from './read-openai-usage.ts';
export {
  foldResponsesInput,
  type FoldedResponsesInput,
  type FoldResponsesInputOptions,
} from './fold-responses-input.ts';
export { readResponsesUsage, type ResponsesUsageLike, type ResponsesUsageReading } from './read-responses-usage.ts';
