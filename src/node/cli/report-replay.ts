import { FoldSession } from '../../session/fold-session.ts';
import { callCost } from '../../tokens/call-cost.ts';
import { leadingIdenticalTokens } from '../../tokens/cached-prefix.ts';
import type { ModelPrice } from '../../tokens/price-table.ts';
import { countMessageTokens } from '../../tokens/message-tokens.ts';
import { renderMessage, type RenderableMessage } from '../../tokens/render-message.ts';
import type { ProviderMessage } from '../../messages/types.ts';

/** A message the model wrote (`assistant`, or Gemini's `model`): a model call came before it. */
export function isModelTurn(message: ProviderMessage): boolean {
  return message.role === 'assistant' || message.role === 'model';
}

/** The scorer's clock: 20 s between model calls. */
export const CALL_INTERVAL_MILLISECONDS = 20_000;

/** A compared strategy, as `warpfold/baselines` defines one (structurally, so this module does not load it). */
export interface ReplayStrategyDefinition {
  readonly name: string;
  create(setup: { ceiling: number; countTokens: (text: string) => number; now: () => number }): {
    prepare(
      history: readonly ProviderMessage[],
      options: { measuredInputTokens?: number },
    ): { readonly messages: readonly ProviderMessage[] };
  };
}

/** What retention at need is measured with: the reference scorer's identifier extraction. */
export type IdentifiersOf = (text: string) => Set<string>;

export interface ReplaySetup {
  readonly ceiling: number;
  readonly window: number;
  readonly price: ModelPrice;
  readonly countTokens: (text: string) => number;
  /** Truncation and clearing, when `warpfold/baselines` could be loaded. */
  readonly baselines: readonly ReplayStrategyDefinition[];
  readonly identifiers: IdentifiersOf | null;
  /** Renderings and token counts to share with the baselines' own memo, so a message is rendered once in memory. */
  readonly measure?: Measure;
  /** Called after each model call with (done, of). */
  readonly onCall?: (done: number, of: number) => void;
  /**
   * Input tokens the provider recorded for the call that wrote model turn `turn` (0 for the
   * first assistant message): the replays are calibrated to them.
   */
  readonly recordedInput?: ReadonlyMap<number, number>;
}

export interface StrategyTally {
  calls: number;
  tokens: number;
  cachedTokens: number;
  cost: number;
  maxTokens: number;
  overCeilingCalls: number;
  prepareMilliseconds: number;
  errors: number;
}

export interface ReplayTally {
  readonly calls: number;
  /** Calls whose counts were calibrated to a recorded input (the rest carry the last known offset). */
  readonly calibratedCalls: number;
  readonly overflowCalls: number;
  readonly raw: StrategyTally;
  readonly warpfold: StrategyTally;
  readonly baselines: ReadonlyMap<string, StrategyTally>;
  readonly needles: number;
  readonly needlesKept: number;
}

const emptyTally = (): StrategyTally => ({
  calls: 0,
  tokens: 0,
  cachedTokens: 0,
  cost: 0,
  maxTokens: 0,
  overCeilingCalls: 0,
  prepareMilliseconds: 0,
  errors: 0,
});

export interface Measure {
  rendered(message: ProviderMessage): string;
  /** Tokens of one message as the engine counts it (`countMessageTokens`): billed text plus media. */
  messageTokens(message: ProviderMessage): number;
}

/** Renderings and token counts remembered per message object, then per text: each distinct message is tokenized once. */
export function createMeasure(countTokens: (text: string) => number): Measure {
  const rendering = new WeakMap<object, string>();
  const tokensOfMessage = new WeakMap<object, number>();
  const tokensOfText = new Map<string, number>();
  const textTokens = (text: string): number => {
    let count = tokensOfText.get(text);
    if (count === undefined) {
      count = countTokens(text);
      // bounded, like createTokenCounter's memo
      if (tokensOfText.size >= 200_000) tokensOfText.clear();
      tokensOfText.set(text, count);
    }
    return count;
  };
  const rendered = (message: ProviderMessage): string => {
    let text = rendering.get(message);
    if (text === undefined) rendering.set(message, (text = renderMessage(message as RenderableMessage)));
    return text;
  };
  const messageTokens = (message: ProviderMessage): number => {
    let count = tokensOfMessage.get(message);
    if (count === undefined) tokensOfMessage.set(message, (count = countMessageTokens(message, textTokens)));
    return count;
  };
  return { rendered, messageTokens };
}

interface ViewMeter {
  previousParts: string[];
  measured: number | undefined;
  readonly tally: StrategyTally;
}

/**
 * A count calibrated to what the provider measured: our o200k count of the messages plus the
 * offset of the last recorded call (its system prompt, its tools and the tokenizer difference,
 * none of which the transcript holds). Never below zero.
 */
const calibrate = (counted: number, offset: number): number => Math.max(0, counted + offset);

/**
 * One session replayed as an agent runs it, every strategy side by side in one pass: a model call
 * before each assistant (or Gemini `model`) message (after the first message), the history so far handed to
 * `prepare` with the previous prompt's size as `measuredInputTokens`, the clock 20 s on per call.
 * Costs, cache reads and retention follow the reference scorer (and `warpfold/baselines`'
 * `replaySession`) exactly; the raw history is measured incrementally, and no view is kept past
 * the next call, so memory stays bounded by the session itself. Where the transcript records the
 * input of a call, every strategy's count at that call is calibrated by the same offset (recorded
 * minus our count of the raw history), and warpfold gets its calibrated count back as
 * `measuredInputTokens`, as it would running live.
 */
export function replayForReport(messages: readonly ProviderMessage[], setup: ReplaySetup): ReplayTally {
  const measure = setup.measure ?? createMeasure(setup.countTokens);
  // a call later than the cache lifetime reads nothing from the cache, as in warpfold/baselines' replaySession
  const cacheAlive = CALL_INTERVAL_MILLISECONDS <= setup.price.cacheLifetimeSeconds * 1000;
  let clock = 0;
  const now = () => clock;
  const fold = new FoldSession({
    pressureCeiling: setup.ceiling,
    countTokens: setup.countTokens,
    now,
    keepReceipts: false,
  });
  const warpfold: ViewMeter = { previousParts: [], measured: undefined, tally: emptyTally() };
  const baselines = setup.baselines.map((definition) => ({
    name: definition.name,
    strategy: definition.create({ ceiling: setup.ceiling, countTokens: setup.countTokens, now }),
    meter: { previousParts: [], measured: undefined, tally: emptyTally() } as ViewMeter,
  }));
  const raw = emptyTally();
  let rawTotal = 0;
  let rawMeasuredUpTo = 0;
  let previousRawTotal = 0;
  let overflowCalls = 0;
  let offset = 0;
  let calibratedCalls = 0;
  let modelTurns = 0;
  let needles = 0;
  let needlesKept = 0;
  const lastSeen = new Map<string, number>();
  const totalCalls = messages.reduce((count, message, index) => count + (index > 0 && isModelTurn(message) ? 1 : 0), 0);

  const meterView = (meter: ViewMeter, view: readonly ProviderMessage[]): string[] => {
    const parts = view.map(measure.rendered);
    const sizes = view.map(measure.messageTokens);
    let counted = 0;
    for (const size of sizes) counted += size;
    const total = calibrate(counted, offset);
    // the part of the offset that is the system prompt and tools leads every prompt: cached with the rest
    const shared = meter.previousParts.length > 0 ? leadingIdenticalTokens(meter.previousParts, parts, sizes) : 0;
    const cachedPrefix = meter.previousParts.length > 0 ? Math.min(total, calibrate(shared, offset)) : 0;
    const cost = callCost({
      totalTokens: total,
      cachedPrefixTokens: cacheAlive ? cachedPrefix : 0,
      model: setup.price,
      writeBelowMinimum: true,
    });
    const tally = meter.tally;
    tally.calls++;
    tally.tokens += total;
    tally.cachedTokens += cost.cacheReadTokens;
    tally.cost += cost.inputCost;
    tally.maxTokens = Math.max(tally.maxTokens, total);
    if (total > setup.ceiling) tally.overCeilingCalls++;
    meter.measured = total;
    meter.previousParts = parts;
    return parts;
  };

  const timed = <T>(
    tally: StrategyTally,
    history: readonly ProviderMessage[],
    prepare: () => T & { messages: readonly ProviderMessage[] },
  ): readonly ProviderMessage[] => {
    const started = performance.now();
    try {
      return prepare().messages;
    } catch {
      // as the scorer does: a strategy that throws sends the raw history
      tally.errors++;
      return history;
    } finally {
      tally.prepareMilliseconds += performance.now() - started;
    }
  };

  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    const turn = isModelTurn(message) ? modelTurns++ : -1;
    if (index > 0 && turn >= 0) {
      clock += CALL_INTERVAL_MILLISECONDS;
      // raw: the history is append-only, so the previous prompt is all cached prefix
      for (; rawMeasuredUpTo < index; rawMeasuredUpTo++) rawTotal += measure.messageTokens(messages[rawMeasuredUpTo]);
      const recorded = setup.recordedInput?.get(turn);
      if (recorded !== undefined) {
        offset = recorded - rawTotal;
        calibratedCalls++;
      }
      const rawCalibrated = calibrate(rawTotal, offset);
      const rawCost = callCost({
        totalTokens: rawCalibrated,
        cachedPrefixTokens: cacheAlive ? Math.min(previousRawTotal, rawCalibrated) : 0,
        model: setup.price,
        writeBelowMinimum: true,
      });
      raw.calls++;
      raw.tokens += rawCalibrated;
      raw.cachedTokens += rawCost.cacheReadTokens;
      raw.cost += rawCost.inputCost;
      raw.maxTokens = Math.max(raw.maxTokens, rawCalibrated);
      if (rawCalibrated > setup.ceiling) raw.overCeilingCalls++;
      if (rawCalibrated > setup.window) overflowCalls++;
      previousRawTotal = rawCalibrated;

      const history = messages.slice(0, index);
      const view = timed(warpfold.tally, history, () =>
        fold.prepare(history, { measuredInputTokens: warpfold.measured }),
      );
      const parts = meterView(warpfold, view);
      for (const baseline of baselines) {
        const baselineView = timed(baseline.meter.tally, history, () =>
          baseline.strategy.prepare(history, { measuredInputTokens: baseline.meter.measured }),
        );
        meterView(baseline.meter, baselineView);
      }
      if (setup.identifiers) {
        const used = setup.identifiers(measure.rendered(message));
        if (used.size > 0) {
          const text = parts.join('');
          for (const identifier of used) {
            const last = lastSeen.get(identifier);
            if (last === undefined || last >= index - 2 || last < 2) continue;
            needles++;
            if (text.includes(identifier)) needlesKept++;
          }
        }
      }
      setup.onCall?.(raw.calls, totalCalls);
    }
    if (setup.identifiers)
      for (const identifier of setup.identifiers(measure.rendered(message))) lastSeen.set(identifier, index);
  }
  return {
    calls: raw.calls,
    calibratedCalls,
    overflowCalls,
    raw,
    warpfold: warpfold.tally,
    baselines: new Map(baselines.map((baseline) => [baseline.name, baseline.meter.tally])),
    needles,
    needlesKept,
  };
}
