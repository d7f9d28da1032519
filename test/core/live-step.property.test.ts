/**
 * The live step (every message since the last assistant message: what the model is about to
 * read) is shown whole whenever it fits in half the ceiling, in every dialect and at every
 * ceiling from the engine's minimum to 200,000: the bands give way first.
 */
import fc from 'fast-check';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { MINIMUM_PRESSURE_CEILING_TOKENS } from '../../src/budget/index.ts';
import { estimateTokens } from '../../src/fold/index.ts';
import { FoldSession } from '../../src/index.ts';
import { arbitraryHistory } from '../helpers/arbitraries.ts';
import { DIALECTS, isAssistant, isResponsesStepItem, type ProviderMessage } from '../helpers/dialects.ts';
import { preparePoints } from '../helpers/drive.ts';
import { messageTokens, viewTokens } from '../helpers/view-checks.ts';

const RUNS = Number(process.env.FC_RUNS) || 6;
const MAX_CEILING = 200_000;

/** A share of the history's own size, so that windows of every size fill and fold. */
const share = fc.double({ min: 0.05, max: 0.9, noNaN: true });
const ceilingFor = (historyTokens: number, fraction: number) =>
  Math.min(MAX_CEILING, Math.max(MINIMUM_PRESSURE_CEILING_TOKENS, Math.round(fraction * historyTokens)));

const modelSide = (message: ProviderMessage) => isAssistant(message) || isResponsesStepItem(message);

/** Index of the first message of the live step: just after the last message of the model's side. */
function liveStart(history: readonly ProviderMessage[]): number {
  let start = history.length;
  while (start > 0 && !modelSide(history[start - 1])) start--;
  return start;
}

describe.each(DIALECTS)('the live step over generated %s histories', (dialect) => {
  it('is in the view unchanged whenever it fits in half the ceiling', () => {
    let checked = 0;
    let folded = 0;
    const ceilings: number[] = [];
    fc.assert(
      fc.property(
        // many large and huge outputs, so windows up to 200,000 fill and fold too
        arbitraryHistory({ maxTurns: 8, maxStepsPerTurn: 12, hugeWeight: 3, largeWeight: 4 }, dialect),
        share,
        fc.boolean(),
        (generated, fraction, exact) => {
          const countTokens = exact ? o200k : estimateTokens;
          const history = generated.history;
          const tokens = messageTokens(history, countTokens);
          const pressureCeiling = ceilingFor(
            tokens.reduce((sum, size) => sum + size, 0),
            fraction,
          );
          ceilings.push(pressureCeiling);
          const session = new FoldSession({ pressureCeiling, countTokens, now: () => 0 });
          for (const point of preparePoints(history)) {
            const slice = history.slice(0, point);
            const outcome = session.prepare(slice);
            expect(viewTokens(outcome.messages, countTokens)).toBeLessThanOrEqual(pressureCeiling);
            if (outcome.stats.bands > 0) folded++;
            const start = liveStart(slice);
            const live = slice.slice(start);
            const liveTokens = tokens.slice(start, point).reduce((sum, size) => sum + size, 0);
            if (!live.length || liveTokens > pressureCeiling / 2) continue;
            checked++;
            const shown = new Set(outcome.messages.map((message) => JSON.stringify(message)));
            for (const message of live) expect(shown.has(JSON.stringify(message))).toBe(true);
          }
        },
      ),
      { numRuns: RUNS, seed: 36 },
    );
    // not vacuous: live steps were checked, and some views folded
    expect(checked).toBeGreaterThan(RUNS);
    expect(folded).toBeGreaterThan(0);
    expect(Math.max(...ceilings)).toBeGreaterThan(16_000);
  });
});
