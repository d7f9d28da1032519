/**
 * The raw tail folds under the ceiling once it passes the working set: an agent's last few steps
 * take about the same tokens in any window, so the working set is a fixed size, and never more
 * than its share of a small window.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { DEFAULT_FOLD_CONFIG, tailCapTokens } from '../../src/fold/fold-config.ts';

const { workingSetTokens, workingSetShare } = DEFAULT_FOLD_CONFIG;

describe('the raw tail cap', () => {
  it('is its share of a small window and the fixed working set in a large one', () => {
    expect(tailCapTokens(DEFAULT_FOLD_CONFIG, 8_000)).toBeCloseTo(8_000 * workingSetShare);
    expect(tailCapTokens(DEFAULT_FOLD_CONFIG, 16_000)).toBe(workingSetTokens);
    expect(tailCapTokens(DEFAULT_FOLD_CONFIG, 200_000)).toBe(workingSetTokens);
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
