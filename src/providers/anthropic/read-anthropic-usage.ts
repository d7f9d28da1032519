import { isRecord } from '../../text/is-record.ts';
import { usageFromAnthropic } from '../../transcripts/read-claude-code.ts';
import type { RecordedUsage } from '../../transcripts/types.ts';
import { ProviderInputError } from '../provider-error.ts';

/** Token counts of one Anthropic call; `measuredInputTokens` goes to the next `prepare`. */
export type AnthropicUsage = RecordedUsage;

/**
 * Reads `usage` from a Messages API response, a streamed `message_start` / `message_delta`
 * event, or a bare `usage` object. `measuredInputTokens` is everything the model read: fresh
 * input plus cache reads plus cache writes (Anthropic reports the three apart).
 */
export function readAnthropicUsage(response: unknown): AnthropicUsage {
  if (!isRecord(response))
    throw new ProviderInputError(
      'anthropic',
      'response',
      `expected a response object, got ${response === null ? 'null' : typeof response}`,
    );
  const usage = isRecord(response.usage)
    ? response.usage
    : isRecord(response.message) && isRecord(response.message.usage)
      ? response.message.usage
      : 'input_tokens' in response
        ? response
        : undefined;
  if (usage === undefined)
    throw new ProviderInputError(
      'anthropic',
      'response.usage',
      'no usage object in the response (expected `usage`, `message.usage` or a usage object)',
    );
  return usageFromAnthropic(usage);
}
