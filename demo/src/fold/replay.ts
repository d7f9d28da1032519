/**
 * Replays a history call by call (before each assistant message, as the benchmark does) through
 * warpfold and the baselines, with exact o200k counts of what each strategy would send, the
 * benchmark's cache-aware cost model and its retention-at-need metric. Pure: runs in the worker
 * and in Node.
 */
import { FoldSession, type FoldOutcome, type ProviderMessage } from '../../../src/index.ts';
import { callCost, countTokens, leadingIdenticalTokens, resolveModelPrice } from '../../../src/tokens/index.ts';
import {
  clearStrategy,
  identifiers,
  maskStrategy,
  messageTokens,
  rawStrategy,
  renderedMessage,
  resetSharedTokenMemo,
  truncateStrategy,
  type BaselineMessage,
  type Strategy,
} from '../../../src/baselines/index.ts';
import type { CallSummary, FoldSettings, StrategyName, StrategySeries } from './protocol.ts';

const isAnswer = (message: ProviderMessage | undefined) => {
  const role = (message as { role?: unknown } | undefined)?.role;
  return role === 'assistant' || role === 'model';
};

/**
 * The benchmark's convention: a model call happens before each assistant message after the first
 * message; with `pending`, one more after the last message when no answer ends the history.
 */
export function callPoints(history: readonly ProviderMessage[], pending = false): number[] {
  const points: number[] = [];
  for (let index = 1; index < history.length; index++) if (isAnswer(history[index])) points.push(index);
  if (pending && history.length > 0 && !isAnswer(history[history.length - 1])) points.push(history.length);
  return points;
}

export function foldSessionFor(settings: FoldSettings): FoldSession {
  let clock = 0;
  const session = new FoldSession({
    pressureCeiling: settings.ceiling,
    countTokens,
    now: () => clock,
    freeze: { ttlMs: settings.freezeTtlSeconds * 1000 },
    // the inspector shows the receipt of every epoch of the transcript
    keepReceipts: true,
    ...(settings.recall === 'auto' ? {} : { recall: settings.recall === 'on' }),
  });
  return Object.assign(session, { advance: (ms: number) => (clock += ms), clock: () => clock });
}

/** Where a needle's last sighting must be, as the scorer counts it. */
const NEAR_MESSAGES = 2;

interface SeriesState {
  readonly series: StrategySeries;
  previousParts: string[];
  tokens: number;
  cached: number;
  cost: number;
  needles: number;
  kept: number;
}

export type ReplayProgress = (done: number, total: number) => boolean | void | Promise<boolean | void>;

/** Folds one call somewhere else (a remote endpoint) instead of the local session. */
export type Folder = (
  history: readonly ProviderMessage[],
  measuredInputTokens: number | undefined,
  now: number,
) => Promise<FoldOutcome>;

export interface Replay {
  readonly calls: CallSummary[];
  readonly strategies: StrategySeries[];
  readonly outcomes: FoldOutcome[];
  readonly session: FoldSession;
}

/** Replays `history`; `progress` may return false (or resolve to false) to stop early. */
export async function replayHistory(
  history: readonly ProviderMessage[],
  settings: FoldSettings,
  progress?: ReplayProgress,
  folder?: Folder,
): Promise<Replay | null> {
  resetSharedTokenMemo();
  const price = resolveModelPrice(settings.priceModel);
  const cacheAlive = settings.secondsBetweenCalls <= price.cacheLifetimeSeconds;
  const session = foldSessionFor(settings) as FoldSession & { advance(ms: number): void; clock(): number };
  const setup = { ceiling: settings.ceiling, countTokens, now: () => 0 };
  const baselines: Array<[StrategyName, Strategy]> = [
    ['raw', rawStrategy.create(setup)],
    ['truncate', truncateStrategy.create(setup)],
    ['mask', maskStrategy.create(setup)],
    ['clear', clearStrategy.create(setup)],
  ];
  const states = new Map<StrategyName, SeriesState>();
  for (const name of ['warpfold', ...baselines.map(([name]) => name)] as StrategyName[])
    states.set(name, {
      series: { name, tokens: [], cumulativeCost: [], cacheHitPercent: [], retentionPercent: [] },
      previousParts: [],
      tokens: 0,
      cached: 0,
      cost: 0,
      needles: 0,
      kept: 0,
    });

  const points = callPoints(history, settings.pendingCall === true);
  const calls: CallSummary[] = [];
  const outcomes: FoldOutcome[] = [];
  const lastSeen = new Map<string, number>();
  let seenUpTo = 0;
  // what the provider counted for the previous prompt, handed back as the benchmark does
  let measured: number | undefined;
  for (const [callIndex, point] of points.entries()) {
    for (; seenUpTo < point; seenUpTo++)
      for (const identifier of identifiers(renderedMessage(history[seenUpTo] as BaselineMessage)))
        lastSeen.set(identifier, seenUpTo);
    const slice = history.slice(0, point);
    // identifiers the next assistant message uses that were last seen far enough back: the scorer's needles
    // a pending call has no answer yet, so nothing it uses is known
    const answer = history[point] as BaselineMessage | undefined;
    const needles = [...(answer === undefined ? [] : identifiers(renderedMessage(answer)))].filter((identifier) => {
      const last = lastSeen.get(identifier);
      return last !== undefined && last < point - NEAR_MESSAGES && last >= NEAR_MESSAGES;
    });
    const measure = (name: StrategyName, view: readonly BaselineMessage[]) => {
      const state = states.get(name) as SeriesState;
      const parts = view.map(renderedMessage);
      const sizes = view.map(messageTokens);
      const total = sizes.reduce((sum, size) => sum + size, 0);
      const shared = leadingIdenticalTokens(state.previousParts, parts, sizes);
      let sharedMessages = 0;
      while (
        sharedMessages < parts.length &&
        sharedMessages < state.previousParts.length &&
        parts[sharedMessages] === state.previousParts[sharedMessages]
      )
        sharedMessages++;
      const cost = callCost({
        totalTokens: total,
        cachedPrefixTokens: cacheAlive ? shared : 0,
        model: price,
        writeBelowMinimum: true,
      });
      state.previousParts = parts;
      state.tokens += total;
      state.cached += cost.cacheReadTokens;
      state.cost += cost.inputCost;
      const text = parts.join('');
      state.needles += needles.length;
      for (const needle of needles) if (text.includes(needle)) state.kept++;
      state.series.tokens.push(total);
      state.series.cumulativeCost.push(state.cost);
      state.series.cacheHitPercent.push(state.tokens ? (100 * state.cached) / state.tokens : 0);
      state.series.retentionPercent.push(state.needles ? (100 * state.kept) / state.needles : 100);
      return { total, shared, sharedMessages, cost, sizes };
    };

    session.advance(settings.secondsBetweenCalls * 1000);
    const outcome = folder
      ? await folder(slice, measured, session.clock())
      : session.prepare(slice, measured === undefined ? {} : { measuredInputTokens: measured });
    outcomes.push(outcome);
    const folded = measure('warpfold', outcome.messages as BaselineMessage[]);
    measured = folded.total;
    for (const [name, strategy] of baselines) measure(name, strategy.prepare(slice as BaselineMessage[], {}).messages);
    let rawTokens = 0;
    for (const message of slice) rawTokens += messageTokens(message as BaselineMessage);
    calls.push({
      call: callIndex + 1,
      historyLength: point,
      viewMessages: outcome.messages.length,
      viewTokens: folded.total,
      rawTokens,
      sessionViewTokens: outcome.stats.viewTokens,
      cacheHot: outcome.cacheHot,
      sharedPrefixMessages: folded.sharedMessages,
      sharedPrefixTokens: folded.shared,
      cachedTokens: folded.cost.cacheReadTokens,
      cost: folded.cost.inputCost,
      epochReason: outcome.stats.epochReason ?? null,
      merged: outcome.stats.merged === true,
      recallCardsAdded: outcome.stats.recallCardsAdded,
      recallCardsResident: outcome.stats.recallCardsResident,
      bands: outcome.stats.bands,
      sealedBoundary: outcome.sealedBoundary,
    });
    if (progress) {
      const go = await progress(callIndex + 1, points.length);
      if (go === false) return null;
    }
  }
  return { calls, strategies: [...states.values()].map((state) => state.series), outcomes, session };
}
