// The reference scorer's replay of one session through one strategy, with its metrics exactly
// (../shared/bench/score.mjs, function `replay`), plus the extra model calls a summarizer makes.
import { callCost, leadingIdenticalTokens, resolveModelPrice, countTokens } from '../../src/tokens/index.ts';
import { renderedMessage, textTokens } from '../strategies/message-tokens.ts';
import { timedPrepare } from '../strategies/timed-prepare.ts';
import type { BenchMessage, StrategyDefinition } from '../strategies/types.ts';
import { identifierContexts, identifiers, messageShingles } from './identifiers.ts';

/** A needle is far when last seen more than this many messages before it is used. */
const FAR_MESSAGES = 20;
/** The scorer's clock: 20 s between calls. */
export const CLOCK_STEP_MILLISECONDS = 20_000;
/** Sonnet-class, 5-minute cache, 1,024-token minimum: the scorer's price model. */
export const REPLAY_PRICE_MODEL = 'sonnet-class';

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
  prepareMilliseconds: number;
  errors: number;
  extraCalls: number;
  extraCost: number;
  firstError?: string;
}

export function emptyCounters(): ReplayCounters {
  return {
    calls: 0, tokens: 0, cachedTokens: 0, cost: 0, floor: 0, overCeilingCalls: 0, maxTokens: 0,
    needles: 0, needlesKept: 0, farNeedles: 0, farNeedlesKept: 0, contextKept: 0, farContextKept: 0,
    reuse: 0, reuseKept: 0, farReuse: 0, farReuseKept: 0, prepareMilliseconds: 0, errors: 0, extraCalls: 0, extraCost: 0,
  };
}

export function replaySession(messages: readonly BenchMessage[], definition: StrategyDefinition, ceiling: number): ReplayCounters {
  const counters = emptyCounters();
  const writePerToken = (resolveModelPrice(REPLAY_PRICE_MODEL).inputPerMillion * resolveModelPrice(REPLAY_PRICE_MODEL).cacheWriteMultiplier) / 1e6;
  let clock = 0;
  const strategy = definition.create({ ceiling, countTokens, now: () => clock });
  let previousParts: string[] = [];
  let measured: number | undefined;
  let previousLength = 0;
  const lastSeen = new Map<string, number>();
  const lastContext = new Map<string, string>();
  const lastShingle = new Map<string, number>();

  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message.role === 'assistant' && index > 0) {
      const history = messages.slice(0, index);
      clock += CLOCK_STEP_MILLISECONDS;
      const { prepared, milliseconds, error } = timedPrepare(strategy, history, { measuredInputTokens: measured });
      if (error) {
        counters.errors++;
        counters.firstError ??= `call ${counters.calls}: ${error.message}`;
      }
      counters.prepareMilliseconds += milliseconds;

      const parts = prepared.messages.map(renderedMessage);
      const sizes = parts.map(textTokens);
      const total = sizes.reduce((sum, size) => sum + size, 0);
      const cost = callCost({ totalTokens: total, cachedPrefixTokens: leadingIdenticalTokens(previousParts, parts, sizes), model: REPLAY_PRICE_MODEL, writeBelowMinimum: true });
      for (const extra of prepared.extraCalls ?? []) {
        const extraParts = extra.messages.map(renderedMessage);
        const extraSizes = extraParts.map(textTokens);
        const extraTotal = extraSizes.reduce((sum, size) => sum + size, 0);
        counters.extraCalls++;
        counters.extraCost += callCost({ totalTokens: extraTotal, cachedPrefixTokens: leadingIdenticalTokens(previousParts, extraParts, extraSizes), model: REPLAY_PRICE_MODEL, writeBelowMinimum: true, outputTokens: extra.outputTokens }).totalCost;
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
      for (const added of history.slice(previousLength)) counters.floor += textTokens(renderedMessage(added)) * writePerToken;
      previousLength = history.length;

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
