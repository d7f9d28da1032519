/**
 * Finding 7 of issue 14: a restored snapshot resumes byte for byte. The repro is a Gemini session
 * with id-less calls answered by name, one call never answered: pairing a slice of the history
 * on its own used to pair results differently from the whole, so a band built after a restore
 * (and a skeleton line cached by the original) disagreed, e.g. `→ 9 lines` against `→ 8 lines`.
 */
import { describe, expect, it } from 'vitest';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { pairToolCalls, Transcript } from '../../src/messages/index.ts';
import { estimateTokens } from '../../src/fold/index.ts';

const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu'.split(' ');
const say = (count: number, offset: number) =>
  Array.from({ length: count }, (_, n) => WORDS[(n + offset) % WORDS.length]).join(' ');

/** User text, then for k < 12 a model call `grep thing_k app.py`, answered for k > 0 by k + 2 lines. */
function geminiRepro(): ProviderMessage[] {
  const history: ProviderMessage[] = [{ role: 'user', parts: [{ text: say(5, 0) }] }];
  for (let k = 0; k < 12; k++) {
    history.push({
      role: 'model',
      parts: [{ text: say(20, k) }, { functionCall: { name: 'bash', args: { command: `grep thing_${k} app.py` } } }],
    });
    if (k > 0)
      history.push({
        role: 'user',
        parts: [
          {
            functionResponse: {
              name: 'bash',
              response: {
                output: Array.from({ length: k + 2 }, (_, i) => `app.py:${i}: thing_${k} ${say(5, i)}`).join('\n'),
              },
            },
          },
        ],
      });
  }
  return history;
}

describe('a restored snapshot resumes byte for byte', () => {
  it('Gemini, id-less calls answered by name, one never answered: every snapshot point resumes exactly', () => {
    const history = geminiRepro();
    const diverged: string[] = [];
    for (let snapshotAt = 1; snapshotAt < history.length; snapshotAt++) {
      const original = new FoldSession({ pressureCeiling: 1_000, now: () => 0 });
      let restored: FoldSession | null = null;
      for (let length = 1; length <= history.length; length++) {
        const view = JSON.stringify(original.prepare(history.slice(0, length)));
        if (restored && JSON.stringify(restored.prepare(history.slice(0, length))) !== view) {
          diverged.push(`snapshot after call ${snapshotAt} diverges at call ${length}`);
          break;
        }
        if (length === snapshotAt)
          restored = new FoldSession({ pressureCeiling: 1_000, now: () => 0, restoredState: original.snapshot() });
      }
    }
    expect(diverged).toEqual([]);
  });

  it('pairing a slice agrees with pairing the whole history', () => {
    const transcript = new Transcript(estimateTokens);
    transcript.sync(geminiRepro());
    const whole = new Map(pairToolCalls(transcript.messages).map((pair) => [pair.id, pair.resultIndex]));
    for (let start = 0; start < transcript.length; start++)
      for (const pair of pairToolCalls(transcript.messages.slice(start)))
        if (pair.resultIndex !== null)
          expect(pair.resultIndex, `slice from ${start}, call ${pair.id}`).toBe(whole.get(pair.id));
  });
});
