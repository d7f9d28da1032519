import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, RECALL_BY_DEFAULT_UP_TO, resolveContextBudget, startTaskRail, unwrapTaskRail, type ProviderMessage } from '../../src/index.ts';

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

  it('pages folded content back in by default only at tight ceilings', () => {
    const recalls = (ceiling: number, recall?: boolean) => new FoldSession({ pressureCeiling: ceiling, recall }).recallEnabled;
    expect(recalls(RECALL_BY_DEFAULT_UP_TO)).toBe(true);
    expect(recalls(RECALL_BY_DEFAULT_UP_TO + 1)).toBe(false);
    expect(recalls(16_000, true)).toBe(true);
    expect(recalls(8_000, false)).toBe(false);
  });

  it('renders the task rail into a hard-epoch seed', () => {
    const rail = unwrapTaskRail(startTaskRail({ id: 'r', title: 'Logging cleanup', steps: [{ title: 'Remove print debugging' }], now: 0 }));
    const outcome = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => 0 }).prepare(history, { hardEpoch: true, taskRail: rail });
    expect(outcome.stats.epochReason).toBe('hard-epoch');
    expect(JSON.stringify(outcome.messages)).toContain('Remove print debugging');
  });
});
