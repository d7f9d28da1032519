/** Gemini helpers: requests that keep the folded conversation after an explicit cache, and usage for the next `prepare`. */
export {
  geminiSealedCacheBody,
  prepareGeminiRequest,
  type GeminiCachedContentRef,
  type GeminiRequestOptions,
} from './prepare-gemini-request.ts';
export { readGeminiUsage, type GeminiUsage } from './read-gemini-usage.ts';
