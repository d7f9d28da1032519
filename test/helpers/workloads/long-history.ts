// A long agent session handed over in one call (issue 29): what a Durable Object restoring a long
// session, or a host attaching warpfold late, passes to its first prepare(). Steps of one tool
// call (bash, read_file, edit_file or grep, with a command and a path) and its result of 40–80
// words, a user message every 8 steps, agent text on every third call and after every fifth step.
import { noiseSource } from './seeded-random.ts';
import type { BaselineMessage } from '../../../src/baselines/types.ts';

/** Calls the bench makes over one long history. */
export const LONG_HISTORY_CALLS = 6;

const TOOLS = ['bash', 'read_file', 'edit_file', 'grep'] as const;
const SYLLABLES = [
  'ba',
  'ko',
  'ri',
  'te',
  'mu',
  'sa',
  'vel',
  'din',
  'por',
  'qua',
  'zen',
  'lo',
  'fi',
  'gar',
  'ne',
  'shu',
  'tor',
  'wy',
  'ex',
  'pli',
  'dro',
  'cam',
  'hu',
  'jo',
  'ny',
  'ost',
  'rak',
  'si',
  'um',
  'ves',
];
const MODULES = ['invoice', 'ledger', 'tax', 'refund', 'export', 'payment', 'customer', 'report'];

/** Words of two to four syllables: a long history names hundreds of thousands of distinct ones, as real output (ids, names, log text) does. */
function words(noise: ReturnType<typeof noiseSource>, count: number): string {
  return Array.from({ length: count }, () =>
    Array.from({ length: 2 + noise.integer(3) }, () => noise.pick(SYLLABLES)).join(''),
  ).join(' ');
}

/** At least `messages` messages of the session, the system prompt first; deterministic for a seed. */
export function longHistory(messages: number, seed = 29): BaselineMessage[] {
  const history: BaselineMessage[] = [
    {
      role: 'system',
      content:
        'You are a coding agent. Use the tools to inspect and change the repository; keep going until the task is done.',
    },
  ];
  for (let step = 0; history.length < messages; step++) {
    const noise = noiseSource(seed * 1_000_003 + step);
    if (step % 8 === 0)
      history.push({ role: 'user', content: `Step ${step}: ${words(noise, 6 + noise.integer(10))}.` });
    const tool = TOOLS[step % TOOLS.length];
    const path = `src/${noise.pick(MODULES)}/${noise.pick(MODULES)}_${noise.hex(4)}.ts`;
    const command =
      tool === 'bash'
        ? `npm test -- ${path}`
        : tool === 'grep'
          ? `grep -n ${words(noise, 1)} ${path}`
          : tool === 'read_file'
            ? `cat ${path}`
            : `sed -i s/${words(noise, 1)}/${words(noise, 1)}/ ${path}`;
    const id = `call_${step}`;
    history.push({
      role: 'assistant',
      content: step % 3 === 0 ? `${words(noise, 8 + noise.integer(12))} ${path}.` : null,
      tool_calls: [{ id, type: 'function', function: { name: tool, arguments: JSON.stringify({ command, path }) } }],
    });
    history.push({ role: 'tool', tool_call_id: id, content: `${path}: ${words(noise, 40 + noise.integer(41))}` });
    if (step % 5 === 4) history.push({ role: 'assistant', content: `${words(noise, 10 + noise.integer(20))}.` });
  }
  return history.slice(0, messages);
}
