/**
 * The raw tail folds under the ceiling once it passes the working set: a share of the ceiling, so
 * an agent that reads whole files keeps more of its recent steps raw in a larger window, and memory
 * keeps the larger part of any window.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { DEFAULT_FOLD_CONFIG, tailCapTokens } from '../../src/fold/fold-config.ts';

const { workingSetShare } = DEFAULT_FOLD_CONFIG;
const workingSetTokens = 16_000 * workingSetShare;

describe('the raw tail cap', () => {
  it('is the same share of every window, from the smallest to 200,000', () => {
    for (const ceiling of [1_000, 8_000, 16_000, 64_000, 200_000])
      expect(tailCapTokens(DEFAULT_FOLD_CONFIG, ceiling)).toBeCloseTo(ceiling * workingSetShare);
    expect(workingSetShare).toBeLessThan(0.5);
  });

  it('is unbounded with no ceiling', () => {
    expect(tailCapTokens(DEFAULT_FOLD_CONFIG, null)).toBe(Number.POSITIVE_INFINITY);
  });

  it('lets a session at 16,000 keep a raw tail past a quarter of the ceiling and fold it once it passes the working set', () => {
    const history: ProviderMessage[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Fix the failing parser tests.' },
    ];
    const session = new FoldSession({
      pressureCeiling: 16_000,
      countTokens,
      now: () => 0,
      foldConfig: { alwaysOn: true },
    });
    let tailAtFirstEpoch: number | undefined;
    for (let step = 0; step < 60 && tailAtFirstEpoch === undefined; step++) {
      const tail = history.slice(2).reduce((sum, message) => sum + countTokens(JSON.stringify(message)), 0);
      history.push(
        {
          role: 'assistant',
          content: `Step ${step}: reading the next slice of the parser.`,
          tool_calls: [
            {
              id: `c${step}`,
              type: 'function',
              function: {
                name: 'bash',
                arguments: JSON.stringify({ command: `sed -n ${step * 40},${step * 40 + 39}p src/parser_${step}.py` }),
              },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: `c${step}`,
          content: Array.from(
            { length: 40 },
            (_, line) => `    token_${step}_${line} = read_token(stream, offset=${step * 40 + line})`,
          ).join('\n'),
        },
      );
      if (session.prepare(history).stats.epochReason) tailAtFirstEpoch = tail;
    }
    expect(tailAtFirstEpoch).toBeDefined();
    expect(tailAtFirstEpoch!).toBeGreaterThan(16_000 * 0.25 + 1_000);
    expect(tailAtFirstEpoch!).toBeLessThan(workingSetTokens * 1.2);
  });
});
