// Replays the outage scenario call by call through one strategy in one dialect and prices every
// call like a provider would: cached prefix at the read price (only if it reaches the model's
// minimum and the cache has not expired), the rest written to the cache at the write premium,
// tool definitions and a separate system prompt included in what is billed.
import { callCost, countTokens, leadingIdenticalTokens, resolveModelPrice } from '../../src/tokens/index.ts';
import { renderedMessage, textTokens } from '../../src/baselines/message-tokens.ts';
import { timedPrepare } from '../../src/baselines/timed-prepare.ts';
import type { Dialect } from '../../src/baselines/dialect.ts';
import type { BaselineMessage, StrategyDefinition } from '../../src/baselines/types.ts';
import { callPositions, transcriptFor } from '../../test/helpers/workloads/dialect-transcript.ts';
import type { OutageScript } from '../../test/helpers/workloads/outage-script.ts';

export const STEP_SECONDS = 20;

export interface ScenarioRun {
  readonly strategy: string;
  readonly dialect: Dialect;
  readonly ceiling: number;
  readonly model: string;
  readonly calls: number;
  readonly cacheReadCost: number;
  readonly cacheWriteCost: number;
  readonly freshCost: number;
  /** Reads + writes + fresh, for the agent's own calls. */
  readonly inputCost: number;
  readonly extraCalls: number;
  /** The extra calls' input (same cache rules) and output. */
  readonly extraCost: number;
  readonly totalCost: number;
  readonly cacheReadTokens: number;
  readonly promptTokens: number;
  /** Share of all prompt tokens billed as cache hits. */
  readonly cacheHitPercent: number;
  /** Calls whose messages (what the strategy controls) exceed the ceiling. */
  readonly overCeilingCalls: number;
  readonly factsTotal: number;
  readonly factsInFinalPrompt: number;
  readonly factsAtNeed: number;
  readonly missedAtNeed: string[];
  readonly missedInFinal: string[];
  readonly finalPromptTokens: number;
  readonly maxPromptTokens: number;
  /** Final prompt tokens over the raw history's final prompt tokens. */
  readonly finalVersusRaw: number;
  readonly prepareMilliseconds: number;
  readonly errors: number;
  readonly firstError?: string;
}

/** The prompt parts a provider bills besides the messages: tool definitions, then a separate system prompt. */
export function fixedPromptParts(script: OutageScript, system: string | null): string[] {
  const parts = [`<tools>\n${JSON.stringify(script.tools)}\n`];
  if (system !== null) parts.push(`<system>\n${system}\n`);
  return parts;
}

export function replayScenario(
  script: OutageScript,
  definition: StrategyDefinition,
  dialect: Dialect,
  ceiling: number,
  model: string,
): ScenarioRun {
  const price = resolveModelPrice(model);
  const transcript = transcriptFor(script, dialect);
  const fixedParts = fixedPromptParts(script, transcript.system);
  const positions = callPositions(transcript.messages);
  let clock = 0;
  const strategy = definition.create({ ceiling, countTokens, now: () => clock * 1000 });
  let previousParts: string[] = [];
  let previousCallAt = -Infinity;
  let measured: number | undefined;
  const totals = {
    cacheReadCost: 0,
    cacheWriteCost: 0,
    freshCost: 0,
    inputCost: 0,
    extraCalls: 0,
    extraCost: 0,
    cacheReadTokens: 0,
    promptTokens: 0,
    overCeilingCalls: 0,
    maxPromptTokens: 0,
    prepareMilliseconds: 0,
    errors: 0,
  };
  let firstError: string | undefined;
  const missedAtNeed: string[] = [];
  let finalText = '';
  let finalPromptTokens = 0;

  positions.forEach((position, callIndex) => {
    const step = script.steps[callIndex];
    clock += STEP_SECONDS + (step.pauseSeconds ?? 0);
    const history = transcript.messages.slice(0, position);
    const { prepared, milliseconds, error } = timedPrepare(strategy, history, { measuredInputTokens: measured });
    if (error) {
      totals.errors++;
      firstError ??= `call ${callIndex + 1}: ${error.message}`;
    }
    totals.prepareMilliseconds += milliseconds;

    const cacheWarm = clock - previousCallAt <= price.cacheLifetimeSeconds;
    const bill = (messages: readonly BaselineMessage[], outputTokens = 0) => {
      const parts = [...fixedParts, ...messages.map(renderedMessage)];
      const sizes = parts.map(textTokens);
      const total = sizes.reduce((sum, size) => sum + size, 0);
      const cached = cacheWarm ? leadingIdenticalTokens(previousParts, parts, sizes) : 0;
      return {
        parts,
        total,
        cost: callCost({ totalTokens: total, cachedPrefixTokens: cached, model: price, outputTokens }),
      };
    };
    for (const extra of prepared.extraCalls ?? []) {
      totals.extraCalls++;
      totals.extraCost += bill(extra.messages, extra.outputTokens).cost.totalCost;
    }
    const { parts, total, cost } = bill(prepared.messages);
    totals.cacheReadCost += cost.cacheReadCost;
    totals.cacheWriteCost += cost.cacheWriteCost;
    totals.freshCost += cost.freshCost;
    totals.inputCost += cost.inputCost;
    totals.cacheReadTokens += cost.cacheReadTokens;
    totals.promptTokens += total;
    totals.maxPromptTokens = Math.max(totals.maxPromptTokens, total);
    const messageTokens = parts.slice(fixedParts.length).reduce((sum, part) => sum + textTokens(part), 0);
    if (messageTokens > ceiling) totals.overCeilingCalls++;
    previousParts = parts;
    previousCallAt = clock;
    measured = total;

    const text = parts.join('');
    for (const fact of script.facts)
      if (fact.neededAtStep === callIndex + 1 && !text.includes(fact.value)) missedAtNeed.push(fact.value);
    finalText = text;
    finalPromptTokens = total;
  });

  const rawFinalTokens = [
    ...fixedParts,
    ...transcript.messages.slice(0, positions[positions.length - 1]).map(renderedMessage),
  ].reduce((sum, part) => sum + textTokens(part), 0);
  const missedInFinal = script.facts.filter((fact) => !finalText.includes(fact.value)).map((fact) => fact.value);
  return {
    strategy: definition.name,
    dialect,
    ceiling,
    model: price.model,
    calls: positions.length,
    ...totals,
    totalCost: totals.inputCost + totals.extraCost,
    cacheHitPercent: totals.promptTokens ? (100 * totals.cacheReadTokens) / totals.promptTokens : 0,
    factsTotal: script.facts.length,
    factsInFinalPrompt: script.facts.length - missedInFinal.length,
    factsAtNeed: script.facts.length - missedAtNeed.length,
    missedAtNeed,
    missedInFinal,
    finalPromptTokens,
    finalVersusRaw: finalPromptTokens / rawFinalTokens,
    ...(firstError ? { firstError } : {}),
  };
}
