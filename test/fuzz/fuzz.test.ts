/**
 * The quick fuzz run in CI (issue 14, "Also build"): a fixed seed, real fixture sessions in all
 * three dialects, mutated (see mutations.ts), every invariant of fuzz-run.ts checked at every
 * call. `npm run fuzz` runs the same thing longer (test/fuzz/soak.ts).
 *   FUZZ_SEED=<n> FUZZ_CASES=<n> change the sample.
 */
import { describe, expect, it } from 'vitest';
import { FUZZ_INVARIANTS, fuzzSummary, runFuzz } from './fuzz-run.ts';
import { MUTATION_NAMES } from './mutations.ts';

const SEED = Number(process.env.FUZZ_SEED) || 14_014;
const CASES = Number(process.env.FUZZ_CASES) || 45;

describe('seeded fuzz over mutated real sessions', () => {
  it(`seed ${SEED}, ${CASES} cases: no invariant broken at any call`, () => {
    const report = runFuzz({ seed: SEED, cases: CASES });
    const summary = fuzzSummary(report);
    // not vacuous: every dialect, most mutations, rejections and folds all happened
    expect(
      Object.values(report.byDialect).every((count) => count > 0),
      summary,
    ).toBe(true);
    expect(MUTATION_NAMES.filter((name) => report.mutations[name] === 0).length, summary).toBeLessThanOrEqual(3);
    expect(report.rejected, summary).toBeGreaterThan(0);
    expect(report.accepted, summary).toBeGreaterThan(report.rejected);
    expect(report.epochs['over-budget'] ?? 0, summary).toBeGreaterThan(0);
    expect(report.restores, summary).toBeGreaterThan(0);
    expect(Object.fromEntries(FUZZ_INVARIANTS.map((name) => [name, report.problems[name]])), summary).toEqual(
      Object.fromEntries(FUZZ_INVARIANTS.map((name) => [name, 0])),
    );
  }, 180_000);

  it('is deterministic under a fixed seed', () => {
    const first = runFuzz({ seed: 7, cases: 4, callsPerCase: 8 });
    const second = runFuzz({ seed: 7, cases: 4, callsPerCase: 8 });
    expect(second).toEqual(first);
  }, 120_000);
});
