import type { Dialect, ProviderMessage } from './types.ts';

/**
 * Decides the dialect from the first message that tells: Gemini has `parts` or role `model`,
 * Anthropic has content blocks of its own types, OpenAI has `tool_calls` or role `tool`.
 * Plain string chats read the same in OpenAI and Anthropic; OpenAI is the default.
 */
export function detectDialect(history: readonly ProviderMessage[]): Dialect {
  return readDialect(history).dialect;
}

/**
 * The dialect and whether the history says so. Text-only chats read the same in OpenAI and
 * Anthropic: `certain` stays false until a message tells, and a later telling message then only
 * settles the reading instead of rewriting what was read.
 */
export function readDialect(history: readonly ProviderMessage[]): { dialect: Dialect; certain: boolean } {
  for (const message of history) {
    if (message === null || typeof message !== 'object') continue;
    if (message.role === 'model' || Array.isArray(message.parts)) return { dialect: 'gemini', certain: true };
    if (message.role === 'tool' || Array.isArray(message.tool_calls)) return { dialect: 'openai', certain: true };
    if (Array.isArray(message.content)) {
      for (const block of message.content as unknown[]) {
        const type = (block as { type?: unknown } | null)?.type;
        // media and document blocks tell too: their token estimates differ by provider
        if (type === 'tool_use' || type === 'tool_result' || type === 'thinking' || type === 'redacted_thinking' || type === 'image' || type === 'document' || type === 'search_result') return { dialect: 'anthropic', certain: true };
        if (type === 'image_url' || type === 'input_audio' || type === 'file') return { dialect: 'openai', certain: true };
      }
    }
  }
  return { dialect: 'openai', certain: false };
}
