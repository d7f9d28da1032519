/**
 * One property run: drive a main session (deep-frozen input), a twin (structured clones) and,
 * now and then, a session restored from a snapshot over a generated history, call by call, and
 * collect every invariant problem. Shared by the property test and exploratory scripts.
 */
import fc from 'fast-check';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { ALWAYS_ON_FOLD_CONFIG, estimateTokens } from '../../src/fold/index.ts';
import {
  FoldSession,
  type FoldOutcome,
  type FoldPrepareOptions,
  type FoldSessionOptions,
  type TokenCounter,
} from '../../src/index.ts';
import { arbitraryHistory, type ScriptShape } from './arbitraries.ts';
import { callsOf, resultsOf, type Dialect, type ProviderMessage } from './dialects.ts';
import { ManualClock, preparePoints } from './drive.ts';
import { rawTextOf, viewProblems, type Invariant, type Problem } from './invariants.ts';
import { closetValues, deepFreeze, foldBlocks, messageTokens, viewTokens } from './view-checks.ts';

export const COUNTERS: Record<'o200k' | 'estimate', TokenCounter> = { o200k, estimate: estimateTokens };

export const DEFAULT_SHAPE: ScriptShape = { maxTurns: 6, maxStepsPerTurn: 10, hugeWeight: 1 };

export function scenario(dialect: Dialect, shape: ScriptShape = DEFAULT_SHAPE) {
  return fc.record({
    generated: arbitraryHistory(shape, dialect),
    ceiling: fc.integer({ min: 2_000, max: 8_000 }),
    counter: fc.constantFrom<'o200k' | 'estimate'>('o200k', 'estimate'),
    alwaysOn: fc.boolean(),
    // mostly warm (seconds apart), sometimes past the 5-minute cache TTL
    clockSteps: fc.array(
      fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 1_000, max: 60_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 300_001, max: 1_800_000 }) },
      ),
      { minLength: 1, maxLength: 16 },
    ),
    // the twin session gets a fresh structured clone on every call (a worker parsing JSON) or one clone reused
    cloneEachCall: fc.boolean(),
    // the host reports what the provider counted for the previous prompt
    telemetry: fc.boolean(),
    restoreEvery: fc.integer({ min: 2, max: 7 }),
    // the host asks for a hard epoch every n calls (0: never)
    hardEpochEvery: fc.oneof(
      { weight: 3, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 3, max: 12 }) },
    ),
    // the host attaches warpfold mid-session: the first prepare already sees this many assistant turns
    skipCalls: fc.oneof(
      { weight: 3, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 30 }) },
    ),
  });
}

export type Scenario = ReturnType<typeof scenario> extends fc.Arbitrary<infer T> ? T : never;

/** Paths a run went through, so a suite can show its scenarios are not vacuous. */
export type Coverage = Set<string>;

export interface RunResult {
  readonly problems: Problem[];
  readonly coverage: Coverage;
}

/** Where two serializations first differ, with a little context: views run to tens of kilobytes. */
function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 60));
  return `differ at char ${at} of ${expected.length}/${actual.length}: expected …${around(expected)}… got …${around(actual)}…`;
}

function thrown(error: unknown): { invariant: Invariant; detail: string } {
  // a write into the deep-frozen input throws a TypeError in strict-mode code
  const frozenWrite =
    error instanceof TypeError &&
    /read.only|not extensible|frozen|Cannot (assign|add|delete|define)/i.test(error.message);
  return {
    invariant: frozenWrite ? 'input never mutated' : 'valid input never throws',
    detail: `prepare threw ${String(error)}`,
  };
}

/** Drives the sessions over the history; returns every problem found (tagged with its call) and the paths covered. */
export function run(dialect: Dialect, input: Scenario): RunResult {
  const { generated, ceiling } = input;
  const countTokens = COUNTERS[input.counter];
  const history = deepFreeze(generated.history);
  const before = JSON.stringify(history);
  const twinHistory = structuredClone(generated.history) as ProviderMessage[];
  const clock = new ManualClock();
  const options: FoldSessionOptions = {
    pressureCeiling: ceiling,
    countTokens,
    now: clock.now,
    ...(input.alwaysOn ? { foldConfig: ALWAYS_ON_FOLD_CONFIG } : {}),
  };
  const session = new FoldSession(options);
  const twin = new FoldSession(options);
  const rawTokens = messageTokens(history, countTokens);
  const rawText = rawTextOf(history);
  const rawJson = new Set(history.map((message) => JSON.stringify(message)));
  const problems: Problem[] = [];
  const coverage: Coverage = new Set();

  let previous: FoldOutcome | undefined;
  let restored: FoldSession | undefined;
  let measured: number | undefined;
  const all = preparePoints(history);
  const points = all.slice(Math.min(input.skipCalls, all.length - 1));
  for (let call = 0; call < points.length; call++) {
    const point = points[call];
    clock.advance(input.clockSteps[call % input.clockSteps.length]);
    const where = `call ${call} (history length ${point})`;
    const report = (invariant: Invariant, detail: string | undefined) =>
      detail && problems.push({ invariant, detail: `${where}: ${detail}` });
    const slice = history.slice(0, point);
    const prepareOptions: FoldPrepareOptions = {
      ...(measured === undefined ? {} : { measuredInputTokens: measured }),
      ...(input.hardEpochEvery && call % input.hardEpochEvery === input.hardEpochEvery - 1 ? { hardEpoch: true } : {}),
    };
    let outcome: FoldOutcome;
    let twinOutcome: FoldOutcome;
    try {
      outcome = session.prepare(slice, prepareOptions);
      const twinSlice = input.cloneEachCall
        ? (structuredClone(twinHistory.slice(0, point)) as ProviderMessage[])
        : twinHistory.slice(0, point);
      twinOutcome = twin.prepare(twinSlice, prepareOptions);
    } catch (error) {
      const { invariant, detail } = thrown(error);
      report(invariant, detail);
      break;
    }
    const bytes = JSON.stringify(outcome);

    // determinism: a twin fed equal (not identical) objects gives the same bytes
    const twinDifference = firstDifference(JSON.stringify(twinOutcome), bytes);
    if (twinDifference) report('deterministic across sessions', `twin session's outcome ${twinDifference}`);

    // restore: a session resumed from the last snapshot gives the same outcome
    if (restored) {
      try {
        const restoredDifference = firstDifference(JSON.stringify(restored.prepare(slice, prepareOptions)), bytes);
        if (restoredDifference)
          report('restorable from a snapshot', `restored session's outcome ${restoredDifference}`);
        coverage.add('restored');
      } catch (error) {
        report('restorable from a snapshot', `restored session threw ${String(error)}`);
      }
      restored = undefined;
    }
    if (call % input.restoreEvery === input.restoreEvery - 1)
      restored = new FoldSession({ ...options, restoredState: session.snapshot() });

    // cache: a hot call keeps the sealed prefix, and the previous view, byte for byte
    if (outcome.cacheHot && previous) {
      const boundary = outcome.sealedBoundary;
      if (boundary !== null) coverage.add('hot reuse of a sealed prefix');
      if (boundary !== previous.sealedBoundary)
        report(
          'sealed prefix byte-stable while cache-hot',
          `hot call moved the sealed boundary from ${previous.sealedBoundary} to ${boundary}`,
        );
      const end = (boundary ?? -1) + 1;
      const sealed = firstDifference(
        JSON.stringify(outcome.messages.slice(0, end)),
        JSON.stringify(previous.messages.slice(0, end)),
      );
      if (sealed) report('sealed prefix byte-stable while cache-hot', `hot call changed the sealed prefix: ${sealed}`);
      const whole = firstDifference(
        JSON.stringify(outcome.messages.slice(0, previous.messages.length)),
        JSON.stringify(previous.messages),
      );
      if (whole) report('sealed prefix byte-stable while cache-hot', `hot call changed the previous view: ${whole}`);
    }

    for (const problem of viewProblems(outcome, {
      dialect,
      history: slice,
      ceiling,
      countTokens,
      rawTokens,
      rawText: () => rawText(point),
      rawJson,
    }))
      report(problem.invariant, problem.detail);

    if (outcome.stats.epochReason) coverage.add(`epoch: ${outcome.stats.epochReason}`);
    if (outcome.stats.merged) coverage.add('merged bands');
    if (outcome.stats.bands > 1) coverage.add('several bands');
    if (outcome.stats.clippedMessages > 0) coverage.add('clipped tail');
    if (
      outcome.messages.some(
        (message) =>
          callsOf(message as ProviderMessage, dialect).length > 0 &&
          JSON.stringify(message).includes('[warpfold clipped'),
      )
    )
      coverage.add('clipped call in the tail');
    for (const block of foldBlocks(outcome.messages as ProviderMessage[])) {
      if (/^▸ (?!\d+ (earlier )?tool calls)/m.test(block.text)) coverage.add('fold with skeleton lines');
      if (/^▸ \d+ (earlier )?tool calls/m.test(block.text)) coverage.add('fold with an omitted-calls line');
      if (closetValues(block.text).length) coverage.add('fold with a closet line');
    }
    const view = outcome.messages as ProviderMessage[];
    if (view.some((message) => message.type === 'reasoning' && typeof message.encrypted_content === 'string'))
      coverage.add('encrypted reasoning item in the view');
    if (
      view.some(
        (message) =>
          Array.isArray(message.content) &&
          message.content.some((part: { providerOptions?: unknown }) => part?.providerOptions !== undefined),
      )
    )
      coverage.add('providerOptions in the view');
    const last = slice[slice.length - 1];
    if (last && callsOf(last, dialect).length && !resultsOf(last, dialect).length)
      coverage.add('pending call at the end');

    // a host reports what the provider counted for this prompt: o200k plus a little framing per message
    measured = input.telemetry
      ? viewTokens(outcome.messages as ProviderMessage[], o200k) + 3 * outcome.messages.length
      : undefined;
    previous = outcome;
  }
  if (JSON.stringify(history) !== before)
    problems.push({ invariant: 'input never mutated', detail: 'the input history was changed' });
  return { problems, coverage };
}
