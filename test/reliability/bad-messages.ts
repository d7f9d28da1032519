/** Malformed messages per dialect, each with the typed error prepare must throw for it. */
import { FoldInputError } from '../../src/index.ts';
import type { Dialect, ProviderMessage } from '../helpers/dialects.ts';

export interface BadMessage {
  readonly name: string;
  readonly make: (dialect: Dialect) => ProviderMessage;
  readonly error: typeof FoldInputError;
}

const deep = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { leaf: 'x' };
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

const cyclic = (): Record<string, unknown> => {
  const value: Record<string, unknown> = { name: 'loop' };
  value.self = value;
  return value;
};

const callWith = (dialect: Dialect, args: unknown): ProviderMessage =>
  dialect === 'openai'
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_bad',
            type: 'function',
            function: { name: 'bash', arguments: typeof args === 'string' ? args : JSON.stringify(args) },
          },
        ],
      }
    : dialect === 'anthropic'
      ? { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_bad', name: 'bash', input: args }] }
      : { role: 'model', parts: [{ functionCall: { name: 'bash', args } }] };

export const BAD_MESSAGES: readonly BadMessage[] = [
  {
    name: 'content that is a number',
    make: (dialect) => (dialect === 'gemini' ? { role: 'user', parts: [42] } : { role: 'user', content: 42 }),
    error: FoldInputError,
  },
  { name: 'not an object', make: () => 17 as unknown as ProviderMessage, error: FoldInputError },
  {
    name: 'unknown role',
    make: (dialect) =>
      dialect === 'gemini' ? { role: 'robot', parts: [{ text: 'beep' }] } : { role: 'robot', content: 'beep' },
    error: FoldInputError,
  },
  {
    name: 'orphan tool result',
    make: (dialect) =>
      dialect === 'openai'
        ? { role: 'tool', tool_call_id: 'call_none', content: 'x' }
        : dialect === 'anthropic'
          ? { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_none', content: 'x' }] }
          : { role: 'user', parts: [{ functionResponse: { name: 'no_such_tool', response: { output: 'x' } } }] },
    error: FoldInputError,
  },
  {
    name: 'arguments 10,000 deep',
    make: (dialect) =>
      callWith(dialect, dialect === 'openai' ? `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}` : deep(10_000)),
    error: FoldInputError,
  },
  {
    name: 'cyclic arguments',
    make: (dialect) =>
      dialect === 'openai' ? { role: 'user', content: 'hi', metadata: cyclic() } : callWith(dialect, cyclic()),
    error: FoldInputError,
  },
  {
    name: 'a cyclic extra field',
    make: (dialect) => ({
      ...(dialect === 'gemini' ? { role: 'user', parts: [{ text: 'hi' }] } : { role: 'user', content: 'hi' }),
      extra: cyclic(),
    }),
    error: FoldInputError,
  },
];
