import { isRecord } from '../../text/is-record.ts';
import { numberField } from '../../transcripts/json-lines.ts';
import type { RecordedUsage } from '../../transcripts/types.ts';
import { ProviderInputError } from '../provider-error.ts';

export type GeminiUsage = RecordedUsage & { readonly thoughtsTokens: number; readonly toolUsePromptTokens: number };

/**
 * Reads `usageMetadata` from a `generateContent` response (or one streamed chunk, or the bare
 * metadata). `promptTokenCount` includes `cachedContentTokenCount`; tool-use prompt tokens are
 * input too, so `measuredInputTokens` is their sum.
 */
export function readGeminiUsage(response: unknown): GeminiUsage {
  if (!isRecord(response))
    throw new ProviderInputError(
      'gemini',
      'response',
      `expected a response object, got ${response === null ? 'null' : typeof response}`,
    );
  const usage = isRecord(response.usageMetadata)
    ? response.usageMetadata
    : 'promptTokenCount' in response
      ? response
      : undefined;
  if (usage === undefined)
    throw new ProviderInputError('gemini', 'response.usageMetadata', 'no usageMetadata in the response');
  const prompt = numberField(usage, 'promptTokenCount');
  const cached = numberField(usage, 'cachedContentTokenCount');
  const toolUse = numberField(usage, 'toolUsePromptTokenCount');
  return {
    inputTokens: prompt - cached + toolUse,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    outputTokens: numberField(usage, 'candidatesTokenCount'),
    measuredInputTokens: prompt + toolUse,
    thoughtsTokens: numberField(usage, 'thoughtsTokenCount'),
    toolUsePromptTokens: toolUse,
  };
}
