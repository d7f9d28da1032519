import type { Dialect, ProviderMessage } from './types.ts';

/**
 * Decides the dialect from the first message that tells: Gemini has `parts` or role `model`,
 * Anthropic has content blocks of its own types, OpenAI has `tool_calls` or role `tool`.
 * Plain string chats read the same in OpenAI and Anthropic; OpenAI is the default.
 */
export function detectDialect(history: readonly ProviderMessage[]): Dialect {
  for (const message of history) {
    if (message === null || typeof message !== 'object') continue;
    if (message.role === 'model' || Array.isArray(message.parts)) return 'gemini';
    if (message.role === 'tool' || Array.isArray(message.tool_calls)) return 'openai';
    if (Array.isArray(message.content)) {
      for (const block of message.content as unknown[]) {
        const type = (block as { type?: unknown } | null)?.type;
        if (type === 'tool_use' || type === 'tool_result' || type === 'thinking' || type === 'redacted_thinking') return 'anthropic';
        if (type === 'image_url' || type === 'input_audio') return 'openai';
      }
    }
  }
  return 'openai';
}
