// A long synthetic agent session, generated turn by turn: one tool call and its result per
// turn, mostly small results and one in ten large, an operator message every 40 turns.
import { noiseSource } from './seeded-random.ts';
import type { BaselineMessage } from '../../../src/baselines/types.ts';

const TOOLS = ['bash', 'read_file', 'grep', 'edit_file', 'run_tests'];

export function sessionOpening(): BaselineMessage[] {
  return [
    {
      role: 'system',
      content:
        'You are a coding agent. Use the tools to inspect and change the repository; keep going until the task is done.',
    },
    {
      role: 'user',
      content: 'Migrate the billing service from the legacy ORM to the query builder, keeping every test green.',
    },
  ];
}

/** The messages of turn `turn` (0-based): maybe an operator message, then the call and its result. */
export function syntheticTurn(turn: number, seed = 7): BaselineMessage[] {
  const noise = noiseSource(seed * 100_003 + turn);
  const messages: BaselineMessage[] = [];
  if (turn > 0 && turn % 40 === 0)
    messages.push({
      role: 'user',
      content: `Status check at turn ${turn}: keep the public API of billing/invoice.ts unchanged.`,
    });
  const tool = TOOLS[turn % TOOLS.length];
  const path = `src/billing/${noise.pick(['invoice', 'ledger', 'tax', 'refund', 'export'])}_${noise.hex(4)}.ts`;
  const id = `call_${turn}`;
  messages.push({
    role: 'assistant',
    content: `Turn ${turn}: ${noise.pick(['checking', 'updating', 'testing', 'reading'])} ${path}.`,
    tool_calls: [
      {
        id,
        type: 'function',
        function: {
          name: tool,
          arguments: JSON.stringify(tool === 'bash' ? { command: `npm test -- ${path}` } : { path }),
        },
      },
    ],
  });
  const large = noise.integer(10) === 0;
  const lineCount = large ? 150 + noise.integer(350) : 4 + noise.integer(20);
  const lines = Array.from(
    { length: lineCount },
    (_, index) =>
      `${path}:${index + 1}: ${noise.pick(['const row = await db.select()', 'expect(total).toBe(1200)', 'PASS billing', 'TypeError: cannot read "amount"', 'return ledger.entries'])} ${noise.hex(8)}`,
  );
  messages.push({ role: 'tool', tool_call_id: id, content: lines.join('\n') });
  return messages;
}
