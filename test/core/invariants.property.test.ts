/**
 * DESIGN.md §4 invariants, as properties over generated agent histories in all five dialects
 * (OpenAI chat, Anthropic, Gemini, OpenAI Responses items, AI SDK ModelMessage).
 * Each generated scenario drives `prepare()` call by call over a growing history, as a host does
 * (before each assistant message, then once on the whole history), with a small ceiling
 * (2,000–8,000 tokens), the exact o200k counter or the built-in estimator, an injected clock
 * (sometimes past the cache TTL), optional token telemetry and the always-on fold config.
 * Every call is checked for:
 *   - valid input never throws, and the (deep-frozen) input is never mutated;
 *   - determinism: a twin session fed structured clones gives a byte-identical outcome;
 *   - restore: a session built from `snapshot()` gives the same next outcome as the original;
 *   - while `cacheHot`, the view up to `sealedBoundary` (and the whole previous view) is byte-identical;
 *   - the view is at or under the ceiling, counted with the session's own counter and rendering;
 *   - pairing is valid in the dialect (results follow their calls, no unanswered call except a
 *     pending one at the end) and no field outside the dialect's vocabulary leaks;
 *   - every folded tool call has a `▸ name` skeleton line or is counted on the omitted-calls line;
 *   - every closet (`⌖`) value occurs verbatim in the raw history;
 *   - a fold is smaller than what it replaces (and its header's token count is right);
 *   - the latest user instruction is present in the view.
 *
 * Scenarios are drawn once per dialect (fast-check, fixed seed) and each invariant is its own
 * test, so a failure names the invariant and the first offending calls.
 *   FC_SEED=<n>|random  FC_RUNS=<n>  change the sample; FC_DUMP=<dir> writes failing histories there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type Dialect } from '../helpers/dialects.ts';
import { INVARIANTS, type Problem } from '../helpers/invariants.ts';
import { run, scenario, type Scenario } from '../helpers/property-run.ts';

const RUNS = Number(process.env.FC_RUNS) || 36;
const SEED = process.env.FC_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FC_SEED) || 20_241_129;

interface Sampled {
  readonly index: number;
  readonly input: Scenario;
  readonly problems: readonly Problem[];
  readonly coverage: ReadonlySet<string>;
}

/** Paths the sample must go through, so that passing invariants are not vacuous. */
const REQUIRED_COVERAGE = [
  'epoch: first-call',
  'epoch: over-budget',
  'epoch: cold-cache',
  'epoch: hard-epoch',
  'hot reuse of a sealed prefix',
  'several bands',
  'clipped tail',
  'clipped call in the tail',
  'restored',
  'pending call at the end',
  'fold with skeleton lines',
  'fold with an omitted-calls line',
  'fold with a closet line',
];

/** What only some dialects carry: opaque reasoning items and provider options must reach views unchanged. */
const DIALECT_COVERAGE: Partial<Record<Dialect, readonly string[]>> = {
  'openai-responses': ['encrypted reasoning item in the view'],
  'ai-sdk': ['providerOptions in the view'],
};

/** The shape of a scenario, for a failure report: the histories themselves run to megabytes. */
function describeScenario(input: Scenario): string {
  const { generated, ...rest } = input;
  const sizes = generated.history.map((message) => JSON.stringify(message).length);
  return JSON.stringify({
    ...rest,
    convert: generated.options,
    turns: generated.script.turns.length,
    messages: sizes.length,
    largestMessageChars: Math.max(...sizes),
    totalChars: sizes.reduce((a, b) => a + b, 0),
  });
}

describe.each(DIALECTS)('FoldSession invariants over generated %s histories', (dialect: Dialect) => {
  let sampled: Sampled[] = [];

  beforeAll(() => {
    const inputs = fc.sample(scenario(dialect), { numRuns: RUNS, seed: SEED });
    sampled = inputs.map((input, index) => ({ index, input, ...run(dialect, input) }));
  }, 90_000);

  it('scenarios exercise every epoch kind, hot reuse, several bands, clipping, restore, a pending call, skeleton, omitted-calls and closet lines', () => {
    const covered = new Set(sampled.flatMap((sample) => [...sample.coverage]));
    const required = [...REQUIRED_COVERAGE, ...(DIALECT_COVERAGE[dialect] ?? [])];
    expect(
      required.filter((path) => !covered.has(path)),
      `covered: ${[...covered].sort().join(', ')}`,
    ).toEqual([]);
  });

  it.each(INVARIANTS)('%s', (invariant) => {
    const failing = sampled.flatMap((sample) => {
      const problems = sample.problems.filter((problem) => problem.invariant === invariant);
      return problems.length ? [{ sample, problems }] : [];
    });
    if (!failing.length) return;
    if (process.env.FC_DUMP) {
      mkdirSync(process.env.FC_DUMP, { recursive: true });
      for (const { sample } of failing)
        writeFileSync(
          join(process.env.FC_DUMP, `${dialect}-seed${SEED}-${sample.index}.json`),
          JSON.stringify({ scenario: sample.input }, null, 1),
        );
    }
    const report = failing.slice(0, 3).map(
      ({ sample, problems }) =>
        `sample ${sample.index} ${describeScenario(sample.input)}\n    - ${problems
          .slice(0, 4)
          .map((problem) => problem.detail)
          .join('\n    - ')}${problems.length > 4 ? `\n    … ${problems.length - 4} more` : ''}`,
    );
    throw new Error(
      `"${invariant}" broken in ${failing.length} of ${sampled.length} ${dialect} scenarios (fast-check seed ${SEED}):\n  ${report.join('\n  ')}\n` +
        `replay: FC_SEED=${SEED} npx vitest run test/core/invariants.property.test.ts (FC_DUMP=dir writes the failing scenarios)`,
    );
  });
});
