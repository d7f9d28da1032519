/** Every band is requested through one builder, so `foldContext` folds by the config it is given, `callShare` included. */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FOLD_CONFIG, type ProviderMessage } from '../../src/index.ts';
import { foldContext } from '../../src/fold/index.ts';

function history(): ProviderMessage[] {
  const messages: ProviderMessage[] = [
    { role: 'user', content: 'Audit every handler in src/service for missing timeouts.' },
  ];
  for (let step = 0; step < 40; step++) {
    messages.push(
      {
        role: 'assistant',
        content: `Checking module ${step}: the handler there may block on the ledger client without a deadline, which would explain the stalls.`,
        tool_calls: [
          {
            id: `c${step}`,
            type: 'function',
            function: {
              name: 'bash',
              arguments: JSON.stringify({ command: `grep -n timeout src/service/module_${step}.py` }),
            },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: `c${step}`,
        content: `src/service/module_${step}.py:${step + 10}: client = LedgerClient(retries=${step % 3})`,
      },
    );
  }
  messages.push({ role: 'user', content: 'Now fix the ones without a deadline.' });
  return messages;
}

const callLines = (messages: readonly ProviderMessage[]) =>
  ((messages[0].content as string).match(/^▸ bash/gm) ?? []).length;

describe('foldContext', () => {
  it("guarantees skeleton lines to the newest calls by the config's callShare", () => {
    const fold = (callShare: number) =>
      foldContext(history(), {
        turnsToFold: 1,
        budgetTokens: 700,
        countTokens,
        config: { ...DEFAULT_FOLD_CONFIG, callShare },
      });
    const few = fold(0);
    const many = fold(0.9);
    expect(few.messagesFolded).toBe(many.messagesFolded);
    expect(callLines(many.messages)).toBeGreaterThan(callLines(few.messages));
  });
});
