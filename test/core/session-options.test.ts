import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { resolveContextBudget } from '../../src/budget/index.ts';
import { startTaskRail, unwrapTaskRail } from '../../src/task-rail/index.ts';

const history: ProviderMessage[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Tidy the logging module.' },
  { role: 'assistant', content: 'Looking at logging.py first.' },
  { role: 'user', content: 'Go ahead.' },
];

describe('FoldSession options', () => {
  it('takes its ceiling from a resolved context budget', () => {
    const budget = resolveContextBudget({ engine: 'openai', model: 'gpt-4o' });
    const session = new FoldSession({ budget, countTokens });
    expect(session.ceiling).toBe(budget.pressureCeilingTokens);
    expect(new FoldSession({ budget, pressureCeiling: 9_000 }).ceiling).toBe(9_000);
  });

  it('pages folded content back in only when asked', () => {
    const recalls = (ceiling: number, recall?: boolean) =>
      new FoldSession({ pressureCeiling: ceiling, recall }).recallEnabled;
    expect(recalls(8_000)).toBe(false);
    expect(recalls(16_000)).toBe(false);
    expect(recalls(8_000, true)).toBe(true);
    expect(recalls(16_000, true)).toBe(true);
    expect(recalls(8_000, false)).toBe(false);
  });

  it('renders the task rail into a hard-epoch seed', () => {
    const rail = unwrapTaskRail(
      startTaskRail({ id: 'r', title: 'Logging cleanup', steps: [{ title: 'Remove print debugging' }], now: 0 }),
    );
    const outcome = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => 0 }).prepare(history, {
      hardEpoch: true,
      taskRail: rail,
    });
    expect(outcome.stats.epochReason).toBe('hard-epoch');
    expect(JSON.stringify(outcome.messages)).toContain('Remove print debugging');
  });

  it('a rebirth the session falls back to, when nothing else fits, keeps the host seed and task rail too', () => {
    // one live step of 80 calls: even clipped it cannot fit 1,000 tokens, so the session starts over from a seed
    const calls = Array.from({ length: 80 }, (_, i) => ({
      id: `c${i}`,
      type: 'function',
      function: { name: 'bash', arguments: JSON.stringify({ command: `echo ${'z'.repeat(100)}${i}` }) },
    }));
    const huge: ProviderMessage[] = [
      ...history.slice(0, 2),
      { role: 'assistant', content: null, tool_calls: calls },
      ...calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: 'out' })),
    ];
    const rail = unwrapTaskRail(
      startTaskRail({ id: 'r', title: 'Logging cleanup', steps: [{ title: 'Remove print debugging' }], now: 0 }),
    );
    const withRail = new FoldSession({ pressureCeiling: 1_000, countTokens, now: () => 0 }).prepare(huge, {
      taskRail: rail,
    });
    expect(withRail.stats.epochReason).toBe('hard-epoch');
    expect(JSON.stringify(withRail.messages)).toContain('Task rail: Logging cleanup');
    const withSeed = new FoldSession({ pressureCeiling: 1_000, countTokens, now: () => 0 }).prepare(huge, {
      hardEpochSeed: 'Host seed: continue the logging cleanup.',
    });
    expect(withSeed.stats.epochReason).toBe('hard-epoch');
    expect(JSON.stringify(withSeed.messages)).toContain('Host seed: continue the logging cleanup.');
  });
});
