// Per-call prepare() latency on real sessions: each session replayed call by call the way the
// session replay (and the reference scorer) drives a strategy — one call before every assistant
// message, a clock 20 s further on each call, the previous view's o200k size as
// `measuredInputTokens` — with every call timed on its own. Reported per session family (the
// scorer's `--families` grouping) and over all sessions: the figures an edge host cares about
// (a Worker's CPU allowance per request is a few milliseconds).
import { countTokens } from '../../src/tokens/index.ts';
import type { CorpusSession } from '../corpus/load-sessions.ts';
import { createMessageTokenCounter } from '../strategies/message-tokens.ts';
import type { BenchMessage, StrategyDefinition } from '../strategies/types.ts';

const CLOCK_STEP_MILLISECONDS = 20_000;

/**
 * Sessions replayed untimed before the measured pass: the first calls of a fresh process run
 * interpreted code, and a host keeps its isolate warm across requests.
 */
const WARM_UP_SESSIONS = 1;

export interface LatencyRow {
  /** A session family, or `all`. */
  readonly family: string;
  readonly sessions: number;
  readonly calls: number;
  readonly p50Milliseconds: number;
  readonly p99Milliseconds: number;
  readonly maxMilliseconds: number;
  /** The session and call of the slowest call. */
  readonly slowest: string;
}

/** The scorer's family of a session file (score.mjs `--families`): its name's known prefix. */
export function sessionFamily(file: string): string {
  const known = /^(claudecode-native|claudecode-console|claudecode-cctrace|geminicli-native|geminicli-console|msa|tau|sweagent|openhands|pi)/.exec(file);
  return known ? known[1] : file.split('-')[0];
}

export function quantile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

const rounded = (value: number, digits = 3): number => +value.toFixed(digits);

/** Milliseconds of every prepare() call of one session, in call order. */
export function sessionCallTimes(messages: readonly BenchMessage[], definition: StrategyDefinition, ceiling: number): number[] {
  let clock = 0;
  const strategy = definition.create({ ceiling, countTokens, now: () => clock });
  const harness = createMessageTokenCounter();
  const times: number[] = [];
  let measured: number | undefined;
  for (let index = 1; index < messages.length; index++) {
    if (messages[index].role !== 'assistant') continue;
    const history = messages.slice(0, index);
    clock += CLOCK_STEP_MILLISECONDS;
    const started = performance.now();
    const view = strategy.prepare(history, { measuredInputTokens: measured }).messages;
    times.push(performance.now() - started);
    measured = harness.viewTokens(view);
  }
  return times;
}

function latencyRow(family: string, sessions: number, timed: ReadonlyArray<{ file: string; times: readonly number[] }>): LatencyRow {
  const all = timed.flatMap(({ times }) => times);
  const sorted = [...all].sort((first, second) => first - second);
  let slowest = '—';
  let worst = -1;
  for (const { file, times } of timed)
    times.forEach((time, call) => {
      if (time > worst) [worst, slowest] = [time, `${file.replace(/\.json$/, '')} call ${call}`];
    });
  return { family, sessions, calls: all.length, p50Milliseconds: rounded(quantile(sorted, 0.5)), p99Milliseconds: rounded(quantile(sorted, 0.99)), maxMilliseconds: rounded(quantile(sorted, 1)), slowest };
}

/** Latency per family (alphabetical) and over all sessions (last row). */
export function measureCallLatency(sessions: readonly CorpusSession[], definition: StrategyDefinition, ceiling: number): LatencyRow[] {
  for (const session of sessions.slice(0, WARM_UP_SESSIONS)) sessionCallTimes(session.messages, definition, ceiling);
  const timed = sessions.map((session) => ({ file: session.file, family: sessionFamily(session.file), times: sessionCallTimes(session.messages, definition, ceiling) }));
  const families = [...new Set(timed.map((entry) => entry.family))].sort();
  return [
    ...families.map((family) => {
      const own = timed.filter((entry) => entry.family === family);
      return latencyRow(family, own.length, own);
    }),
    latencyRow('all', timed.length, timed),
  ];
}
