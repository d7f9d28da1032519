/**
 * Found by the fuzz suite (test/fuzz): a result that comes a few messages after its call (a host
 * that interleaves a user note, or reorders) was read fine, but a fold could cut between the two
 * and leave the result in the raw tail without its call, a view the provider rejects. A cut now
 * never separates a call from a result that answers it later. (A call still waiting for its answer
 * when a fold seals is not covered: see the reliability report.)
 */
import { describe, expect, it } from 'vitest';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { Transcript } from '../../src/messages/index.ts';
import { estimateTokens } from '../../src/text/estimate-tokens.ts';

const lines = (seed: number, count: number) =>
  Array.from({ length: count }, (_, n) => `src/module_${seed}.py:${n}: value_${seed}_${n} = compute(${n})`).join('\n');

function delayedAnswers(): ProviderMessage[] {
  const history: ProviderMessage[] = [{ role: 'user', parts: [{ text: 'Audit every module and report.' }] }];
  for (let k = 0; k < 30; k++) {
    history.push({
      role: 'model',
      parts: [
        { text: `Reading module ${k}.` },
        { functionCall: { id: `fc_${k}`, name: 'read_file', args: { path: `src/module_${k}.py` } } },
      ],
    });
    // the host slips a note in before the answer
    history.push({ role: 'user', parts: [{ text: `note ${k}: keep going` }] });
    history.push({
      role: 'user',
      parts: [{ functionResponse: { id: `fc_${k}`, name: 'read_file', response: { output: lines(k, 12) } } }],
    });
  }
  return history;
}

describe('a fold never splits a call from a later answer', () => {
  it('Gemini, answers two messages after their calls, at several ceilings', () => {
    const history = delayedAnswers();
    for (const ceiling of [1_000, 2_000, 4_000]) {
      const session = new FoldSession({ pressureCeiling: ceiling, now: () => 0 });
      let folds = 0;
      // as a host calls it: before each model message, when no call is waiting for its answer
      for (let length = 1; length <= history.length; length += 3) {
        const outcome = session.prepare(history.slice(0, length));
        folds += outcome.stats.epochReason && outcome.stats.messagesFolded ? 1 : 0;
        // the view reads back: every result in it answers a call shown before it
        expect(
          () => new Transcript(estimateTokens).sync(outcome.messages),
          `ceiling ${ceiling}, history length ${length}`,
        ).not.toThrow();
      }
      expect(folds, `ceiling ${ceiling}`).toBeGreaterThan(2);
    }
  });
});
