/**
 * The seeded fuzz run: real fixture sessions, rendered in every dialect, driven call by call as a
 * host does, with the history switched to a mutated copy for a stretch of calls and back again.
 * At every call it checks:
 *   - the input is not mutated (it is deep-frozen: a write throws);
 *   - the output is deterministic (a twin session fed an equal copy gives the same bytes, or
 *     the same error);
 *   - the view is at or under the ceiling, by the counter the session was given;
 *   - a rejected call throws a typed FoldInputError and changes nothing (the snapshot is the same
 *     after it, and a session that never saw it gives the same next views);
 *   - a snapshot resumes byte for byte (a session restored from it gives the same next view when
 *     the history went on from the snapshot; over a rewritten one it re-seals without throwing);
 *   - pairing is valid in the view whenever it is valid in the input.
 * Deterministic under a fixed seed: the same seed tries the same cases and finds the same things.
 */
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { seededRandom } from '../helpers/workloads/seeded-random.ts';
import { estimateTokens } from '../../src/fold/index.ts';
import {
  FoldInputError,
  FoldSession,
  type FoldOutcome,
  type FoldSessionOptions,
  type TokenCounter,
} from '../../src/index.ts';
import { toDialect, type Dialect, type ProviderMessage } from '../helpers/dialects.ts';
import { preparePoints } from '../helpers/drive.ts';
import { deepFreeze, pairingProblems, viewTokens } from '../helpers/view-checks.ts';
import { readFixtureSessions, type FixtureSession } from './fixture-script.ts';
import { MUTATION_NAMES, MUTATIONS, type MutationName, type Random } from './mutations.ts';

export const FUZZ_INVARIANTS = [
  'input not mutated',
  'deterministic',
  'view at or under the ceiling',
  'rejected call is typed',
  'rejected call changes nothing',
  'snapshot resumes byte for byte',
  'pairing valid',
] as const;
export type FuzzInvariant = (typeof FUZZ_INVARIANTS)[number];

export interface FuzzOptions {
  readonly seed: number;
  readonly cases: number;
  /** At most this many prepare calls per case (spread over the session). */
  readonly callsPerCase?: number;
  readonly sessions?: readonly FixtureSession[];
  /** Default: the three chat dialects the mutations were written for; the Responses and AI SDK dialects may be added. */
  readonly dialects?: readonly Dialect[];
}

export const CHAT_DIALECTS: readonly Dialect[] = ['openai', 'anthropic', 'gemini'];

export interface FuzzReport {
  readonly seed: number;
  readonly cases: number;
  readonly calls: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly restores: number;
  /** Restores whose next call saw a rewritten history: re-sealed, checked only for not throwing. */
  readonly resealed: number;
  readonly byDialect: Record<Dialect, number>;
  readonly mutations: Record<string, number>;
  /** Rejections by what the typed error names (nesting, cycle, pairing, role, shape, option, other). */
  readonly rejections: Record<string, number>;
  readonly epochs: Record<string, number>;
  readonly problems: Record<FuzzInvariant, number>;
  /** The first few problems, with their case, for a failure message. */
  readonly examples: string[];
}

function randomOf(seed: number): Random {
  const next = seededRandom(seed);
  return {
    next,
    integer: (below) => Math.floor(next() * below),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}

function rejectionClass(error: FoldInputError): string {
  const problem = error.problem;
  if (error.name === 'FoldOptionsError') return 'option';
  if (/nested more than/.test(problem)) return 'nesting too deep';
  if (/refers back to itself/.test(problem)) return 'cycle';
  if (/answers no pending/.test(problem)) return 'result without its call';
  if (/unknown role/.test(problem)) return 'role';
  if (/tool_calls on a/.test(problem)) return 'calls on a non-assistant message';
  return 'shape';
}

const CEILINGS = [2_000, 4_000, 8_000, 16_000];

interface Attempt {
  readonly outcome?: FoldOutcome;
  readonly error?: unknown;
}

function attempt(run: () => FoldOutcome): Attempt {
  try {
    return { outcome: run() };
  } catch (error) {
    return { error };
  }
}

/** Where two serializations first differ, with a little context. */
function firstDifference(actual: string, expected: string): string {
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  return `at char ${at}: expected …${JSON.stringify(expected.slice(Math.max(0, at - 60), at + 60))}… got …${JSON.stringify(actual.slice(Math.max(0, at - 60), at + 60))}…`;
}

const describeError = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export function runFuzz(options: FuzzOptions): FuzzReport {
  const sessions = options.sessions ?? readFixtureSessions();
  const callsPerCase = options.callsPerCase ?? 24;
  const problems = Object.fromEntries(FUZZ_INVARIANTS.map((name) => [name, 0])) as Record<FuzzInvariant, number>;
  const mutations: Record<string, number> = Object.fromEntries(MUTATION_NAMES.map((name) => [name, 0]));
  const rejections: Record<string, number> = {};
  const epochs: Record<string, number> = {};
  const dialects = options.dialects ?? CHAT_DIALECTS;
  const byDialect = Object.fromEntries(dialects.map((dialect) => [dialect, 0])) as Record<Dialect, number>;
  const examples: string[] = [];
  let calls = 0;
  let accepted = 0;
  let rejected = 0;
  let restores = 0;
  let resealed = 0;

  for (let caseIndex = 0; caseIndex < options.cases; caseIndex++) {
    const random = randomOf(options.seed * 1_000_003 + caseIndex);
    const dialect = dialects[caseIndex % dialects.length];
    byDialect[dialect]++;
    const fixture = random.pick(sessions);
    const convert = {
      geminiIds: random.next() < 0.5,
      anthropicStringContent: random.next() < 0.5,
      systemInHistory: random.next() < 0.7,
    };
    const chosen: MutationName[] = Array.from({ length: 1 + random.integer(3) }, () => random.pick(MUTATION_NAMES));
    const mutationSeed = random.integer(2 ** 31);
    // built twice from the same seed: equal content in distinct objects for the twin (deep and
    // cyclic values defeat structuredClone itself)
    const build = () => {
      const original = toDialect(fixture.script, dialect, convert);
      const mutationRandom = randomOf(mutationSeed);
      let copy = structuredClone(original);
      for (const name of chosen) copy = MUTATIONS[name](copy, dialect, mutationRandom);
      return { original: deepFreeze(original), copy: deepFreeze(copy) };
    };
    for (const name of chosen) mutations[name]++;
    const { original: history, copy: mutated } = build();
    const twinInput = build();
    const ceiling = random.pick(CEILINGS);
    const counterName = random.next() < 0.5 ? 'o200k' : 'estimate';
    const counter: TokenCounter = counterName === 'o200k' ? o200k : estimateTokens;
    let clock = 1_700_000_000_000;
    const sessionOptions: FoldSessionOptions = { pressureCeiling: ceiling, countTokens: counter, now: () => clock };
    const where = (call: number) =>
      `case ${caseIndex} (${fixture.id}, ${dialect}, ceiling ${ceiling}, ${counterName}, ${chosen.join('+')}) call ${call}`;
    const report = (invariant: FuzzInvariant, call: number, detail: string) => {
      problems[invariant]++;
      if (examples.length < 12) examples.push(`${invariant}: ${where(call)}: ${detail}`);
    };

    const main = new FoldSession(sessionOptions);
    const twin = new FoldSession(sessionOptions);
    const clean = new FoldSession(sessionOptions);
    const all = preparePoints(history);
    const stride = Math.max(1, Math.ceil(all.length / callsPerCase));
    const points = all.filter((_, n) => n % stride === 0 || n === all.length - 1);
    // the host's history is the mutated copy for the middle third of the calls
    const mutatedFrom = Math.floor(points.length / 3);
    const mutatedTo = Math.floor((2 * points.length) / 3) + 1;
    const restoreEvery = 2 + random.integer(5);
    let restored: FoldSession | null = null;
    /** The history the restored session's snapshot was taken over. */
    let restoredOver: readonly ProviderMessage[] = [];

    for (let call = 0; call < points.length; call++) {
      clock += random.next() < 0.1 ? 400_000 : 15_000;
      const inMutated = call >= mutatedFrom && call < mutatedTo;
      const source = inMutated ? mutated : history;
      const slice = source.slice(0, Math.min(points[call], source.length));
      const twinSource = inMutated ? twinInput.copy : twinInput.original;
      const twinSlice = twinSource.slice(0, slice.length);
      calls++;
      const before = main.snapshot();
      const result = attempt(() => main.prepare(slice));
      const twinResult = attempt(() => twin.prepare(twinSlice));

      if (result.error !== undefined) {
        rejected++;
        const error = result.error;
        if (
          error instanceof TypeError &&
          /read.only|not extensible|frozen|Cannot (assign|add|delete|define)/i.test(error.message)
        )
          report('input not mutated', call, describeError(error));
        else if (!(error instanceof FoldInputError)) report('rejected call is typed', call, describeError(error));
        else rejections[rejectionClass(error)] = (rejections[rejectionClass(error)] ?? 0) + 1;
        if (describeError(twinResult.error) !== describeError(error))
          report(
            'deterministic',
            call,
            `twin: ${describeError(twinResult.error ?? 'no error')}; main: ${describeError(error)}`,
          );
        if (main.snapshot() !== before) report('rejected call changes nothing', call, 'the snapshot changed');
        restored = null;
        continue;
      }
      accepted++;
      const outcome = result.outcome!;
      const bytes = JSON.stringify(outcome);
      if (outcome.stats.epochReason) epochs[outcome.stats.epochReason] = (epochs[outcome.stats.epochReason] ?? 0) + 1;
      if (twinResult.error !== undefined)
        report('deterministic', call, `twin threw ${describeError(twinResult.error)}`);
      else if (JSON.stringify(twinResult.outcome) !== bytes) report('deterministic', call, 'twin gave other bytes');
      const cleanBytes = JSON.stringify(attempt(() => clean.prepare(slice)).outcome ?? 'threw');
      if (cleanBytes !== bytes)
        report('rejected call changes nothing', call, 'a session that never saw the rejected calls gives other bytes');
      if (restored) {
        const again = attempt(() => restored!.prepare(slice));
        // byte for byte, whether the history went on from where the snapshot was taken or was
        // rewritten (the restore then re-seals as the live session does: boundary-changed)
        const continues =
          slice.length >= restoredOver.length && restoredOver.every((message, n) => slice[n] === message);
        if (continues) restores++;
        else resealed++;
        const restoredBytes = JSON.stringify(again.outcome ?? describeError(again.error));
        if (restoredBytes !== bytes)
          report(
            'snapshot resumes byte for byte',
            call,
            again.error ? describeError(again.error) : `other bytes ${firstDifference(restoredBytes, bytes)}`,
          );
        restored = null;
      }
      if (call % restoreEvery === restoreEvery - 1) {
        try {
          restored = new FoldSession({ ...sessionOptions, restoredState: main.snapshot() });
          restoredOver = slice;
        } catch (error) {
          report('snapshot resumes byte for byte', call, `its own snapshot does not restore: ${describeError(error)}`);
        }
      }
      let tokens = 0;
      try {
        tokens = viewTokens(outcome.messages as ProviderMessage[], counter);
      } catch (error) {
        // the view itself does not read back: a result split from its call, say
        report('pairing valid', call, `the view does not read back: ${describeError(error)}`);
      }
      if (tokens > ceiling) report('view at or under the ceiling', call, `${tokens} tokens over a ${ceiling} ceiling`);
      if (!pairingProblems(slice, dialect).length) {
        const pairing = pairingProblems(outcome.messages as ProviderMessage[], dialect);
        if (pairing.length) report('pairing valid', call, pairing[0]);
      }
    }
  }
  return {
    seed: options.seed,
    cases: options.cases,
    calls,
    accepted,
    rejected,
    restores,
    resealed,
    byDialect,
    mutations,
    rejections,
    epochs,
    problems,
    examples,
  };
}

/** The report as a few plain tables, for the soak run and a failing test. */
export function fuzzSummary(report: FuzzReport): string {
  const rows = (record: Record<string, number>) =>
    Object.entries(record)
      .sort((a, b) => b[1] - a[1])
      .map(([name, count]) => `| ${name} | ${count.toLocaleString('en-US')} |`)
      .join('\n');
  return [
    `seed ${report.seed}: ${report.cases} cases (${Object.entries(report.byDialect)
      .map(([dialect, count]) => `${count} ${dialect}`)
      .join(
        ', ',
      )}), ${report.calls.toLocaleString('en-US')} prepare calls: ${report.accepted.toLocaleString('en-US')} accepted, ${report.rejected.toLocaleString('en-US')} rejected with a typed error, ${report.restores} restores compared byte for byte, ${report.resealed} restores over a rewritten history re-sealed`,
    '',
    '| mutation applied | cases |',
    '|---|---:|',
    rows(report.mutations),
    '',
    '| rejected: the error names | calls |',
    '|---|---:|',
    rows(report.rejections),
    '',
    '| epochs | calls |',
    '|---|---:|',
    rows(report.epochs),
    '',
    '| invariant broken | calls |',
    '|---|---:|',
    rows(report.problems),
    ...(report.examples.length ? ['', ...report.examples] : []),
  ].join('\n');
}
