import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/tokens/index.ts';
import { transcriptFor } from '../helpers/workloads/dialect-transcript.ts';
import { OUTAGE_SCRIPT } from '../helpers/workloads/outage-script.ts';
import { BASELINE_STRATEGIES } from '../../src/baselines/index.ts';
import { viewTokens } from '../../src/baselines/message-tokens.ts';
import type { BaselineMessage } from '../../src/baselines/types.ts';

const BOUNDED = BASELINE_STRATEGIES.filter((strategy) => strategy.name !== 'raw');

/** An OpenAI-shaped agent session: system, task, then tool calls with results of random sizes. */
const sessionArbitrary = fc
  .array(
    fc.record({
      thought: fc.lorem({ maxCount: 12 }),
      result: fc.lorem({ maxCount: 900 }),
      operator: fc.option(fc.lorem({ maxCount: 20 }), { freq: 5 }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((turns) => {
    const messages: BaselineMessage[] = [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'Fix the bug in src/app.ts.' },
    ];
    turns.forEach((turn, index) => {
      if (turn.operator) messages.push({ role: 'user', content: turn.operator });
      messages.push({
        role: 'assistant',
        content: turn.thought,
        tool_calls: [
          {
            id: `c${index}`,
            type: 'function',
            function: { name: 'bash', arguments: JSON.stringify({ command: `cat file_${index}.txt` }) },
          },
        ],
      });
      messages.push({ role: 'tool', tool_call_id: `c${index}`, content: turn.result });
    });
    return messages;
  });

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

describe.each(BOUNDED.map((strategy) => [strategy.name, strategy] as const))('%s', (_name, definition) => {
  it('never exceeds the ceiling and never mutates its input', () => {
    fc.assert(
      fc.property(sessionArbitrary, fc.constantFrom(2_000, 4_000, 8_000), (session, ceiling) => {
        const frozen = deepFreeze(structuredClone(session));
        const snapshot = JSON.stringify(frozen);
        let clock = 0;
        const strategy = definition.create({ ceiling, countTokens, now: () => clock });
        for (let index = 2; index <= frozen.length; index++) {
          if (frozen[index]?.role !== 'assistant' && index !== frozen.length) continue;
          clock += 20_000;
          const view = strategy.prepare(frozen.slice(0, index), {}).messages;
          expect(viewTokens(view)).toBeLessThanOrEqual(ceiling);
        }
        expect(JSON.stringify(frozen)).toBe(snapshot);
      }),
      { numRuns: 25 },
    );
  });

  it.each(['openai', 'anthropic', 'gemini'] as const)(
    'stays under the ceiling on the %s scenario and leaves no orphan tool result first',
    (dialect) => {
      const { messages } = transcriptFor(OUTAGE_SCRIPT, dialect);
      const strategy = definition.create({ ceiling: 8_000, countTokens, now: () => 0 });
      messages.forEach((message, index) => {
        if (message.role !== 'assistant' && message.role !== 'model') return;
        const view = strategy.prepare(messages.slice(0, index), {}).messages;
        expect(viewTokens(view)).toBeLessThanOrEqual(8_000);
      });
    },
  );
});
