/**
 * A long task statement (a SWE-bench issue pasted as the first instruction) at a tight ceiling:
 * it takes over 30% of 8,000 tokens, and stays raw ahead of every band, so every epoch keeps it
 * in the cached prefix instead of folding it into a band that each merge rewrites.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, DEFAULT_FOLD_CONFIG, type ProviderMessage } from '../../src/index.ts';

const CEILING = 8_000;

function issueText(): string {
  const lines = [
    '<uploaded_files>\n/workspace/astropy__astropy__5.0\n</uploaded_files>',
    'The HTML writer ignores the `formats` argument; CSV and RST honour it.',
  ];
  for (let n = 0; lines.join('\n').length < 9_400; n++)
    lines.push(
      `Step ${n}: astropy/io/ascii/html.py line ${120 + n} writes column_${n} without fill_values or formats[column_${n}].`,
    );
  return lines.join('\n');
}

function output(step: number): string {
  return Array.from(
    { length: 40 },
    (_, line) => `astropy/io/ascii/core.py:${step * 40 + line}: def write_${step}_${line}(self, table):`,
  ).join('\n');
}

describe('a task statement longer than 30% of a tight ceiling (under its third)', () => {
  it('stays raw ahead of every band, the same objects through every epoch', () => {
    const issue = issueText();
    const head: ProviderMessage[] = [
      { role: 'system', content: 'You are OpenHands agent.' },
      { role: 'user', content: issue },
    ];
    expect(countTokens(issue)).toBeGreaterThan(0.3 * CEILING);
    expect(countTokens(issue)).toBeLessThan(DEFAULT_FOLD_CONFIG.headFraction * 0.99 * CEILING);
    const history = [...head];
    const session = new FoldSession({ pressureCeiling: CEILING, countTokens, now: () => 0 });
    let epochs = 0;
    for (let step = 0; step < 40; step++) {
      history.push(
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `c${step}`,
              type: 'function',
              function: {
                name: 'execute_bash',
                arguments: JSON.stringify({ command: `grep -n def astropy/io/ascii/core.py | sed -n ${step}p` }),
              },
            },
          ],
        },
        { role: 'tool', tool_call_id: `c${step}`, content: output(step) },
      );
      const outcome = session.prepare(history);
      if (outcome.stats.epochReason) epochs++;
      expect(outcome.messages[0]).toBe(head[0]);
      expect(outcome.messages[1]).toBe(head[1]);
    }
    expect(epochs).toBeGreaterThan(1);
  });
});
