// The reference scorer's replay of one session through one strategy, with its metrics exactly
// (../shared/bench/score.mjs, function `replay`), plus the extra model calls a summarizer makes.
import {
  callCost,
  countTokens,
  DEFAULT_PRICE_MODEL,
  leadingIdenticalTokens,
  resolveModelPrice,
  type ModelPrice,
} from '../tokens/index.ts';
import { messageTokens, renderedMessage } from './message-tokens.ts';
import { timedPrepare } from './timed-prepare.ts';
import type { BaselineMessage, StrategyDefinition } from './types.ts';
import { identifierContexts, identifiers, messageShingles } from './identifiers.ts';

/** A needle is far when last seen more than this many messages before it is used. */
const FAR_MESSAGES = 20;
/** The scorer's clock: 20 s between calls. */
export const CLOCK_STEP_MILLISECONDS = 20_000;

export interface ReplayOptions {
  /** Prompt budget in tokens, handed to the strategy. */
  readonly ceiling: number;
  /** A model id of the price table (`warpfold/tokens`) or a price entry; the scorer's "sonnet-class" by default. */
  readonly price?: string | ModelPrice;
  /**
   * Clock advance between model calls, milliseconds (the scorer's 20 s by default). When it outlives
   * the price's cache lifetime, no call reads the cache.
   */
  readonly millisecondsBetweenCalls?: number;
}

export interface ReplayCounters {
  calls: number;
  tokens: number;
  cachedTokens: number;
  cost: number;
  floor: number;
  overCeilingCalls: number;
  maxTokens: number;
  needles: number;
  needlesKept: number;
  farNeedles: number;
  farNeedlesKept: number;
  contextKept: number;
  farContextKept: number;
  reuse: number;
  reuseKept: number;
  farReuse: number;
  farReuseKept: number;
  /** Calls whose live step (the messages since the last assistant message) fits in half the ceiling. */
  liveCalls: number;
  /** …of which every live message was in the view unchanged. */
  liveIntact: number;
  /** Calls whose view is smaller than the whole history: the ones the strategy folded, cleared or cut. */
  foldedCalls: number;
  prepareMilliseconds: number;
  errors: number;
  extraCalls: number;
  extraCost: number;
  firstError?: string;
}

export function emptyCounters(): ReplayCounters {
  return {
    calls: 0,
    tokens: 0,
    cachedTokens: 0,
    cost: 0,
    floor: 0,
    overCeilingCalls: 0,
    maxTokens: 0,
    needles: 0,
    needlesKept: 0,
    farNeedles: 0,
    farNeedlesKept: 0,
    contextKept: 0,
    farContextKept: 0,
    reuse: 0,
    reuseKept: 0,
    farReuse: 0,
    farReuseKept: 0,
    liveCalls: 0,
    liveIntact: 0,
    foldedCalls: 0,
    prepareMilliseconds: 0,
    errors: 0,
    extraCalls: 0,
    extraCost: 0,
  };
}

/**
 * Replays `messages` through one strategy as the reference scorer does: one call before every
 * assistant (or Gemini `model`) message, the previous prompt's size passed as `measuredInputTokens`, and every figure
 * of the scorer counted over the calls (cost, cache, size, over-ceiling calls, retention at need,
 * in-context, reuse and their far variants).
 */
export function replaySession(
  messages: readonly BaselineMessage[],
  definition: StrategyDefinition,
  options: ReplayOptions,
): ReplayCounters {
  const { ceiling } = options;
  const price = resolveModelPrice(options.price ?? DEFAULT_PRICE_MODEL);
  const step = options.millisecondsBetweenCalls ?? CLOCK_STEP_MILLISECONDS;
  const cacheAlive = step <= price.cacheLifetimeSeconds * 1000;
  const counters = emptyCounters();
  const writePerToken = (price.inputPerMillion * price.cacheWriteMultiplier) / 1e6;
  const costOf = (
    parts: readonly string[],
    sizes: readonly number[],
    total: number,
    previous: readonly string[],
    outputTokens?: number,
  ) =>
    callCost({
      totalTokens: total,
      cachedPrefixTokens: cacheAlive ? leadingIdenticalTokens(previous, parts, sizes) : 0,
      model: price,
      writeBelowMinimum: true,
      outputTokens,
    });
  let clock = 0;
  const strategy = definition.create({ ceiling, countTokens, now: () => clock });
  let previousParts: string[] = [];
  let measured: number | undefined;
  let previousLength = 0;
  let historyTokens = 0;
  const lastSeen = new Map<string, number>();
  const lastContext = new Map<string, string>();
  const lastShingle = new Map<string, number>();

  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    // Gemini's assistant role is `model`; the scorer's chat sessions only have `assistant`
    if ((message.role === 'assistant' || message.role === 'model') && index > 0) {
      const history = messages.slice(0, index);
      clock += step;
      const { prepared, milliseconds, error } = timedPrepare(strategy, history, { measuredInputTokens: measured });
      if (error) {
        counters.errors++;
        counters.firstError ??= `call ${counters.calls}: ${error.message}`;
      }
      counters.prepareMilliseconds += milliseconds;

      const parts = prepared.messages.map(renderedMessage);
      const sizes = prepared.messages.map(messageTokens);
      const total = sizes.reduce((sum, size) => sum + size, 0);
      const cost = costOf(parts, sizes, total, previousParts);
      for (const extra of prepared.extraCalls ?? []) {
        const extraParts = extra.messages.map(renderedMessage);
        const extraSizes = extra.messages.map(messageTokens);
        const extraTotal = extraSizes.reduce((sum, size) => sum + size, 0);
        counters.extraCalls++;
        counters.extraCost += costOf(extraParts, extraSizes, extraTotal, previousParts, extra.outputTokens).totalCost;
      }
      counters.calls++;
      counters.tokens += total;
      counters.cachedTokens += cost.cacheReadTokens;
      counters.cost += cost.inputCost;
      counters.maxTokens = Math.max(counters.maxTokens, total);
      if (total > ceiling) counters.overCeilingCalls++;
      measured = total;
      previousParts = parts;
      // The floor: every new message has to be sent (and written to the cache) at least once.
      for (const added of history.slice(previousLength)) {
        const tokens = messageTokens(added);
        counters.floor += tokens * writePerToken;
        historyTokens += tokens;
      }
      previousLength = history.length;
      if (total < historyTokens) counters.foldedCalls++;

      countLiveStep(counters, history, parts, ceiling);

      const text = parts.join('');
      const collapsed = text.replace(/\s+/g, ' ');
      for (const shingle of messageShingles(message)) {
        const last = lastShingle.get(shingle);
        if (last === undefined || last >= index - 2 || last < 2) continue;
        counters.reuse++;
        const hit = collapsed.includes(shingle);
        if (hit) counters.reuseKept++;
        if (last < index - FAR_MESSAGES) {
          counters.farReuse++;
          if (hit) counters.farReuseKept++;
        }
      }
      for (const identifier of identifiers(renderedMessage(message))) {
        const last = lastSeen.get(identifier);
        if (last === undefined || last >= index - 2 || last < 2) continue;
        counters.needles++;
        const hit = text.includes(identifier);
        if (hit) counters.needlesKept++;
        const context = lastContext.get(identifier);
        const contextHit = context !== undefined && collapsed.includes(context);
        if (contextHit) counters.contextKept++;
        if (last < index - FAR_MESSAGES) {
          counters.farNeedles++;
          if (hit) counters.farNeedlesKept++;
          if (contextHit) counters.farContextKept++;
        }
      }
    }
    for (const identifier of identifiers(renderedMessage(message))) lastSeen.set(identifier, index);
    for (const [identifier, context] of identifierContexts(message)) lastContext.set(identifier, context);
    for (const shingle of messageShingles(message)) lastShingle.set(shingle, index);
  }
  return counters;
}

const isModelSide = (message: BaselineMessage) => message.role === 'assistant' || message.role === 'model';

/**
 * Live whole, as the scorer counts it: when the live step (every message since the last
 * assistant message) fits in half the ceiling, was each of its messages in the view unchanged?
 */
function countLiveStep(
  counters: ReplayCounters,
  history: readonly BaselineMessage[],
  parts: readonly string[],
  ceiling: number,
): void {
  let start = history.length;
  while (start > 0 && !isModelSide(history[start - 1])) start--;
  const live = history.slice(start);
  if (!live.length || live.reduce((sum, message) => sum + messageTokens(message), 0) > ceiling / 2) return;
  counters.liveCalls++;
  const shown = new Set(parts);
  if (live.every((message) => shown.has(renderedMessage(message)))) counters.liveIntact++;
}

export function addCounters(total: ReplayCounters, session: ReplayCounters): ReplayCounters {
  const sum = { ...total };
  for (const key of Object.keys(session) as Array<keyof ReplayCounters>) {
    if (key === 'firstError') continue;
    if (key === 'maxTokens') sum.maxTokens = Math.max(total.maxTokens, session.maxTokens);
    else sum[key] = (total[key] as number) + (session[key] as number);
  }
  sum.firstError = total.firstError ?? session.firstError;
  return sum;
}
