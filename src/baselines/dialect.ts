// The few shape facts the baselines need, for all three dialects: which messages carry tool
// results, how to blank a result, and how to write a synthetic user message.
import type { BaselineMessage } from './types.ts';

export type Dialect = 'openai' | 'anthropic' | 'gemini';

type Block = Record<string, unknown>;

const blocksOf = (value: unknown): Block[] => (Array.isArray(value) ? (value as Block[]) : []);

export function detectDialect(history: readonly BaselineMessage[]): Dialect {
  for (const message of history) {
    if (Array.isArray(message.parts) || message.role === 'model') return 'gemini';
    if (blocksOf(message.content).some((block) => block?.type === 'tool_use' || block?.type === 'tool_result'))
      return 'anthropic';
  }
  return 'openai';
}

/** An OpenAI `tool` message, an Anthropic user message with tool_result blocks, or Gemini functionResponse parts. */
export function isToolResultMessage(message: BaselineMessage): boolean {
  if (message.role === 'tool') return true;
  if (blocksOf(message.content).some((block) => block?.type === 'tool_result')) return true;
  return blocksOf(message.parts).some((part) => part?.functionResponse !== undefined);
}

/** The message with every tool result's payload replaced by `placeholder`; ids and names kept, so pairing stays valid. */
export function replaceToolResults(message: BaselineMessage, placeholder: string): BaselineMessage {
  if (message.role === 'tool') return { ...message, content: placeholder };
  if (Array.isArray(message.content)) {
    return {
      ...message,
      content: blocksOf(message.content).map((block) =>
        block?.type === 'tool_result' ? { ...block, content: placeholder } : block,
      ),
    };
  }
  if (Array.isArray(message.parts)) {
    return {
      ...message,
      parts: blocksOf(message.parts).map((part) => {
        const response = part?.functionResponse as Block | undefined;
        return response ? { ...part, functionResponse: { ...response, response: { result: placeholder } } } : part;
      }),
    };
  }
  return message;
}

export function userMessage(text: string, dialect: Dialect): BaselineMessage {
  if (dialect === 'gemini') return { role: 'user', parts: [{ text }] };
  return { role: 'user', content: text };
}

/** Leading system/user messages among the first two: the system prompt and the task, as the scorer's truncation keeps them. */
export function headMessages(history: readonly BaselineMessage[]): BaselineMessage[] {
  return history.filter((message, index) => index < 2 && (message.role === 'system' || message.role === 'user'));
}

/** First index at or after `start` that is not a tool result, so a tail never opens with an orphan result. */
export function validTailStart(messages: readonly BaselineMessage[], start: number): number {
  let index = start;
  while (index < messages.length && isToolResultMessage(messages[index])) index++;
  return index;
}
