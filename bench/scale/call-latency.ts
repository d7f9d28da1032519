// Per-call prepare() latency on real sessions: each session replayed call by call the way the
// session replay (and the reference scorer) drives a strategy — one call before every assistant
// message, a clock 20 s further on each call, the previous view's o200k size as
// `measuredInputTokens` — with every call timed on its own. Reported per session family (the
// scorer's `--families` grouping) and over all sessions: the figures an edge host cares about
// (a Worker's CPU allowance per request is a few milliseconds). Each call's figure is the median
// of LATENCY_REPLAYS replays.
import { countTokens } from '../../src/tokens/index.ts';
import type { CorpusSession } from '../corpus/load-sessions.ts';
import { createMessageTokenCounter } from '../../src/baselines/message-tokens.ts';
import { CLOCK_STEP_MILLISECONDS } from '../../src/baselines/session-replay.ts';
import type { BaselineMessage, StrategyDefinition } from '../../src/baselines/types.ts';

/**
 * Sessions replayed untimed before the measured pass: the first calls of a fresh process run
 * interpreted code, and a host keeps its isolate warm across requests.
 */
const WARM_UP_SESSIONS = 1;

/**
 * Each session is replayed this many times and each call reports its median, so one call's
 * one-off stall (a collection another call caused, JIT timing) does not set the max; a pause a
 * call causes every time stays in. The machine's own drift between runs remains: on this 2-core
 * machine p99 over dev and dev2 read 8.0–10.6 ms in six runs of the same code.
 */
export const LATENCY_REPLAYS = 3;

/** Per call, the median of several replays' times. */
function medianTimes(replays: readonly (readonly CallTime[])[]): CallTime[] {
  const middle = (values: number[]) => values.sort((first, second) => first - second)[Math.floor(values.length / 2)];
  return replays[0].map((_, call) => ({
    milliseconds: middle(replays.map((times) => times[call].milliseconds)),
    counterMilliseconds: middle(replays.map((times) => times[call].counterMilliseconds)),
  }));
}

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
  /**
   * The same figures less the time spent inside the host's token counter (o200k, which the
   * engine must call once per new message and per new band line): what the engine itself costs.
   */
  readonly engineP50Milliseconds: number;
  readonly engineP99Milliseconds: number;
  readonly engineMaxMilliseconds: number;
}

/** One timed call: all of it, and the part spent in the token counter. */
export interface CallTime {
  readonly milliseconds: number;
  readonly counterMilliseconds: number;
}

/** The scorer's family of a session file (score.mjs `--families`): its name's known prefix. */
export function sessionFamily(file: string): string {
  const known =
    /^(claudecode-native|claudecode-console|claudecode-cctrace|geminicli-native|geminicli-console|msa|tau|sweagent|openhands|pi)/.exec(
      file,
    );
  return known ? known[1] : file.split('-')[0];
}

export function quantile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

const rounded = (value: number, digits = 3): number => +value.toFixed(digits);

/** Every prepare() call of one session, in call order, with the time its token counting took. */
export function sessionCallTimes(
  messages: readonly BaselineMessage[],
  definition: StrategyDefinition,
  ceiling: number,
): CallTime[] {
  let clock = 0;
  let counting = 0;
  const timedCount = (text: string): number => {
    const started = performance.now();
    const tokens = countTokens(text);
    counting += performance.now() - started;
    return tokens;
  };
  const strategy = definition.create({ ceiling, countTokens: timedCount, now: () => clock });
  const harness = createMessageTokenCounter();
  const times: CallTime[] = [];
  let measured: number | undefined;
  for (let index = 1; index < messages.length; index++) {
    if (messages[index].role !== 'assistant') continue;
    const history = messages.slice(0, index);
    clock += CLOCK_STEP_MILLISECONDS;
    counting = 0;
    const started = performance.now();
    const view = strategy.prepare(history, { measuredInputTokens: measured }).messages;
    times.push({ milliseconds: performance.now() - started, counterMilliseconds: counting });
    measured = harness.viewTokens(view);
  }
  return times;
}

function latencyRow(
  family: string,
  sessions: number,
  timed: ReadonlyArray<{ file: string; times: readonly CallTime[] }>,
): LatencyRow {
  const all = timed.flatMap(({ times }) => times);
  const sorted = all.map((time) => time.milliseconds).sort((first, second) => first - second);
  const engine = all
    .map((time) => Math.max(0, time.milliseconds - time.counterMilliseconds))
    .sort((first, second) => first - second);
  let slowest = '—';
  let worst = -1;
  for (const { file, times } of timed)
    times.forEach((time, call) => {
      if (time.milliseconds > worst)
        [worst, slowest] = [time.milliseconds, `${file.replace(/\.json$/, '')} call ${call}`];
    });
  return {
    family,
    sessions,
    calls: all.length,
    p50Milliseconds: rounded(quantile(sorted, 0.5)),
    p99Milliseconds: rounded(quantile(sorted, 0.99)),
    maxMilliseconds: rounded(quantile(sorted, 1)),
    slowest,
    engineP50Milliseconds: rounded(quantile(engine, 0.5)),
    engineP99Milliseconds: rounded(quantile(engine, 0.99)),
    engineMaxMilliseconds: rounded(quantile(engine, 1)),
  };
}

/** Latency per family (alphabetical) and over all sessions (last row). */
export function measureCallLatency(
  sessions: readonly CorpusSession[],
  definition: StrategyDefinition,
  ceiling: number,
): LatencyRow[] {
  for (const session of sessions.slice(0, WARM_UP_SESSIONS)) sessionCallTimes(session.messages, definition, ceiling);
  const timed = sessions.map((session) => {
    const replays = Array.from({ length: LATENCY_REPLAYS }, () =>
      sessionCallTimes(session.messages, definition, ceiling),
    );
    return { file: session.file, family: sessionFamily(session.file), times: medianTimes(replays) };
  });
  const families = [...new Set(timed.map((entry) => entry.family))].sort();
  return [
    ...families.map((family) => {
      const own = timed.filter((entry) => entry.family === family);
      return latencyRow(family, own.length, own);
    }),
    latencyRow('all', timed.length, timed),
  ];
}
