/**
 * A merge that re-folds every band leaves part of the merge target free (`fullMergeShare`), so the
 * next merge re-folds only the newest bands and the oldest band, with the cache over it, survives.
 * Filled to the target, every merge after the first re-folds everything again.
 */
import { describe, expect, it } from 'vitest';
import { sessionOpening, syntheticTurn } from '../helpers/workloads/synthetic-session.ts';
import { DEFAULT_FOLD_CONFIG, FoldSession, type ProviderMessage } from '../../src/index.ts';
import { countTokens } from '../../src/tokens/index.ts';

const TURNS = 300;

/** Merges over a synthetic session at 16,000, and how many of them rewrote the oldest band. */
function merges(fullMergeShare?: number): { merges: number; full: number } {
  let clock = 0;
  const session = new FoldSession({
    pressureCeiling: 16_000,
    countTokens,
    now: () => clock,
    ...(fullMergeShare === undefined ? {} : { foldConfig: { fullMergeShare } }),
  });
  const history = sessionOpening() as ProviderMessage[];
  let count = 0;
  let full = 0;
  let oldest: string | undefined;
  for (let turn = 0; turn < TURNS; turn++) {
    const [first, ...rest] = syntheticTurn(turn) as ProviderMessage[];
    if (first.role === 'user') history.push(first);
    clock += 20_000;
    const outcome = session.prepare(history);
    const band = outcome.messages.find(
      (message) => typeof message.content === 'string' && message.content.startsWith('[warpfold fold'),
    );
    if (outcome.stats.merged) {
      count++;
      if (band?.content !== oldest) full++;
    }
    oldest = band?.content as string | undefined;
    history.push(...(first.role === 'user' ? rest : [first, ...rest]));
  }
  return { merges: count, full };
}

describe('a merge that re-folds every band', () => {
  it('leaves room, so most later merges re-fold only the newest bands', () => {
    expect(DEFAULT_FOLD_CONFIG.fullMergeShare).toBeLessThan(1);
    const roomy = merges();
    expect(roomy.merges).toBeGreaterThan(5);
    expect(roomy.full).toBeLessThanOrEqual(0.6 * roomy.merges);
  });

  it('filled to the target, re-folds every band at nearly every merge', () => {
    const filled = merges(1);
    expect(filled.merges).toBeGreaterThan(5);
    expect(filled.full).toBeGreaterThan(0.8 * filled.merges);
  });
});
