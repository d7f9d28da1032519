/**
 * Finding 4 of issue 14: one assistant message with 100k tool calls and 100k results (in order,
 * reversed, Gemini answering by name) pairs and folds in linear time. Before the fix pairing and
 * the rebirth seed's thread walk were quadratic (100k reversed did not finish in 60 s, the test
 * timeout); the timings themselves live in the scale bench (`bench/scale.ts`, "one step of").
 */
import { describe, expect, it } from 'vitest';
import { hugeStep, HUGE_STEP_SHAPES } from '../helpers/workloads/huge-step.ts';
import { FoldSession } from '../../src/index.ts';
import { pairToolCalls, Transcript } from '../../src/messages/index.ts';
import { estimateTokens } from '../../src/text/estimate-tokens.ts';

const CALLS = 100_000;

describe('one huge step', () => {
  it.each(HUGE_STEP_SHAPES)(
    '%s: every call pairs with its own result, and prepare folds it under the ceiling',
    (shape) => {
      const history = hugeStep(shape, CALLS);
      const transcript = new Transcript(estimateTokens);
      transcript.sync(history);
      const pairs = pairToolCalls(transcript.messages);
      expect(pairs).toHaveLength(CALLS);
      // by id, call n gets "thing_n"; Gemini by name pairs oldest first, so call n gets the n-th result
      const mismatched = pairs.filter((pair, n) => {
        const expected = shape === 'gemini-by-name-reversed' ? CALLS - 1 - n : n;
        return !pair.result?.text.includes(`thing_${expected} =`);
      });
      expect(mismatched.length).toBe(0);
      const outcome = new FoldSession({ pressureCeiling: 16_000, now: () => 0 }).prepare(history);
      expect(outcome.stats.viewTokens).toBeLessThanOrEqual(16_000);
      expect(outcome.stats.rawTokens).toBeGreaterThan(16_000);
    },
  );
});
