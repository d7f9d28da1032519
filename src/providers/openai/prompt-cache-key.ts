import { fnv1a } from '../../text/hash.ts';
import { ProviderInputError } from '../provider-error.ts';

/** OpenAI's limit on `prompt_cache_key` length. */
export const OPENAI_PROMPT_CACHE_KEY_MAX_CHARS = 64;

/**
 * A stable `prompt_cache_key` from the parts that identify one conversation's cache line (a
 * tenant, an agent, a session id…): the same parts give the same key in every runtime, and the
 * key stays within OpenAI's 64 characters however long the parts are.
 */
export function openAIPromptCacheKey(parts: string | readonly (string | number)[]): string {
  const list = typeof parts === 'string' ? [parts] : parts;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.some((part) => typeof part !== 'string' && typeof part !== 'number')
  ) {
    throw new ProviderInputError(
      'openai',
      'promptCacheKey',
      'expected a string or a non-empty list of strings and numbers',
    );
  }
  // Length-prefixed so ['ab', 'c'] and ['a', 'bc'] differ.
  const canonical = list.map((part) => `${String(part).length}:${part}`).join('|');
  const high = fnv1a(canonical).toString(36).padStart(7, '0');
  const low = fnv1a(canonical, 0x5bd1e995).toString(36).padStart(7, '0');
  return `warpfold-${high}${low}`;
}
