// One assistant message with N tool calls answered by N results: the shape that made pairing and
// step reading quadratic (issue 14, finding 4). Shared by the scale bench and its regression test.
import type { BaselineMessage } from '../../../src/baselines/types.ts';

export type HugeStepShape =
  | 'openai-in-order'
  | 'openai-reversed'
  | 'anthropic-reversed'
  | 'gemini-by-name'
  | 'gemini-by-name-reversed';
export const HUGE_STEP_SHAPES: readonly HugeStepShape[] = [
  'openai-in-order',
  'openai-reversed',
  'anthropic-reversed',
  'gemini-by-name',
  'gemini-by-name-reversed',
];

/** The history: an instruction, one message with `calls` calls, then their results in the shape's order. */
export function hugeStep(shape: HugeStepShape, calls: number): BaselineMessage[] {
  const order = Array.from({ length: calls }, (_, n) => n);
  const answers = shape.endsWith('reversed') ? [...order].reverse() : order;
  const command = (n: number) => ({ command: `grep -n thing_${n} src/app.py` });
  const output = (n: number) => `src/app.py:${n + 1}: thing_${n} = load(${n})`;
  if (shape.startsWith('openai'))
    return [
      { role: 'user', content: 'Find every thing_ in src/app.py.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: order.map((n) => ({
          id: `call_${n}`,
          type: 'function',
          function: { name: 'bash', arguments: JSON.stringify(command(n)) },
        })),
      },
      ...answers.map((n) => ({ role: 'tool', tool_call_id: `call_${n}`, content: output(n) })),
    ];
  if (shape.startsWith('anthropic'))
    return [
      { role: 'user', content: 'Find every thing_ in src/app.py.' },
      {
        role: 'assistant',
        content: order.map((n) => ({ type: 'tool_use', id: `toolu_${n}`, name: 'bash', input: command(n) })),
      },
      {
        role: 'user',
        content: answers.map((n) => ({ type: 'tool_result', tool_use_id: `toolu_${n}`, content: output(n) })),
      },
    ];
  // Gemini without ids: every result answers by name, so results pair oldest first whatever their order
  return [
    { role: 'user', parts: [{ text: 'Find every thing_ in src/app.py.' }] },
    { role: 'model', parts: order.map((n) => ({ functionCall: { name: 'bash', args: command(n) } })) },
    {
      role: 'user',
      parts: answers.map((n) => ({ functionResponse: { name: 'bash', response: { output: output(n) } } })),
    },
  ];
}
