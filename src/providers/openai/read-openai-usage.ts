import { isRecord } from '../../text/is-record.ts';
import { numberField } from '../../transcripts/json-lines.ts';
import type { RecordedUsage } from '../../transcripts/types.ts';
import { ProviderInputError } from '../provider-error.ts';

export type OpenAIUsage = RecordedUsage;

/**
 * Reads usage from a Chat Completions response (`prompt_tokens`,
 * `prompt_tokens_details.cached_tokens`), a Responses API response (`input_tokens`,
 * `input_tokens_details.cached_tokens`), a `response.completed` stream event, or a bare usage
 * object. OpenAI counts cached tokens inside the prompt: `measuredInputTokens` is the prompt
 * total, `inputTokens` the uncached part. OpenAI bills no cache writes.
 */
export function readOpenAIUsage(response: unknown): OpenAIUsage {
  if (!isRecord(response))
    throw new ProviderInputError(
      'openai',
      'response',
      `expected a response object, got ${response === null ? 'null' : typeof response}`,
    );
  const holder = isRecord(response.response) ? response.response : response;
  const usage = isRecord(holder.usage)
    ? holder.usage
    : 'prompt_tokens' in holder || 'input_tokens' in holder
      ? holder
      : undefined;
  if (usage === undefined)
    throw new ProviderInputError(
      'openai',
      'response.usage',
      'no usage object in the response (is `stream_options.include_usage` set for streams?)',
    );
  const chat = 'prompt_tokens' in usage;
  const prompt = numberField(usage, chat ? 'prompt_tokens' : 'input_tokens');
  const details = usage[chat ? 'prompt_tokens_details' : 'input_tokens_details'];
  const cached = numberField(isRecord(details) ? details : undefined, 'cached_tokens');
  return {
    inputTokens: prompt - cached,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    outputTokens: numberField(usage, chat ? 'completion_tokens' : 'output_tokens'),
    measuredInputTokens: prompt,
  };
}
