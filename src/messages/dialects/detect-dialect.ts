import { tellsModelMessage } from './ai-sdk.ts';
import { tellsResponsesItem } from './openai-responses.ts';
import type { Dialect, ProviderMessage } from '../types.ts';

/**
 * Decides the dialect from the first message that tells: Responses items carry a top-level
 * `type` (or `input_text` / `output_text` parts), AI SDK messages have `tool-call` /
 * `tool-result` / `reasoning` parts or `providerOptions`, Gemini has `parts` or role `model`,
 * Anthropic has content blocks of its own types, OpenAI has `tool_calls` or role `tool`.
 * Plain string chats read the same in every dialect but Gemini; OpenAI is the default.
 */
export function detectDialect(history: readonly ProviderMessage[]): Dialect {
  return readDialect(history).dialect;
}

/**
 * The dialect and whether the history says so. Text-only chats read the same in OpenAI,
 * Anthropic, Responses and the AI SDK: `certain` stays false until a message tells, and a later
 * telling message then only settles the reading instead of rewriting what was read.
 */
export function readDialect(history: readonly ProviderMessage[]): { dialect: Dialect; certain: boolean } {
  for (const message of history) {
    if (message === null || typeof message !== 'object') continue;
    if (tellsResponsesItem(message)) return { dialect: 'openai-responses', certain: true };
    if (tellsModelMessage(message)) return { dialect: 'ai-sdk', certain: true };
    if (message.role === 'model' || Array.isArray(message.parts)) return { dialect: 'gemini', certain: true };
    if (message.role === 'tool' || Array.isArray(message.tool_calls)) return { dialect: 'openai', certain: true };
    if (Array.isArray(message.content)) {
      for (const block of message.content as unknown[]) {
        const type = (block as { type?: unknown } | null)?.type;
        // media and document blocks tell too: their token estimates differ by provider
        if (
          type === 'tool_use' ||
          type === 'tool_result' ||
          type === 'thinking' ||
          type === 'redacted_thinking' ||
          type === 'image' ||
          type === 'document' ||
          type === 'search_result'
        )
          return { dialect: 'anthropic', certain: true };
        if (type === 'image_url' || type === 'input_audio' || type === 'file')
          return { dialect: 'openai', certain: true };
      }
    }
  }
  return { dialect: 'openai', certain: false };
}
