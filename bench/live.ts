// The outage scenario against a real provider, recording the provider's own cache telemetry
// (Anthropic cache_read_input_tokens / cache_creation_input_tokens, OpenAI
// prompt_tokens_details.cached_tokens) next to the offline simulation's prediction.
// Without ANTHROPIC_API_KEY or OPENAI_API_KEY it says so and exits 0.
//
//   npx tsx bench/live.ts [--provider anthropic|openai] [--model ID] [--base-url URL]
//     [--ceiling 8000] [--strategies raw,truncate,clear,warpfold] [--out bench/results]
// Base URL: --base-url, else ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the public API.
import { countTokens, leadingIdenticalTokens, resolveModelPrice, type ModelPrice } from '../src/tokens/index.ts';
import { nameList, parseArguments } from './cli/arguments.ts';
import { isMainModule } from './cli/is-main.ts';
import { formatInteger, markdownTable, type Cell } from './cli/markdown-table.ts';
import { writeResults } from './cli/write-results.ts';
import { buildRequest, parseUsage, type LiveProvider, type ProviderUsage } from './live/provider-request.ts';
import { repoRelative, RUN_OUTPUT } from './cli/paths.ts';
import { callPositions, transcriptFor } from '../test/helpers/workloads/dialect-transcript.ts';
import { OUTAGE_SCRIPT } from '../test/helpers/workloads/outage-script.ts';
import { fixedPromptParts } from './scenario/replay-scenario.ts';
import { renderedMessage, textTokens } from '../src/baselines/message-tokens.ts';
import { selectStrategies, type EngineSource } from './strategies/registry.ts';
import type { StrategyDefinition } from '../src/baselines/types.ts';

export const DEFAULT_LIVE_STRATEGIES = ['raw', 'truncate', 'clear', 'warpfold'];
export const DEFAULT_LIVE_MODELS: Record<LiveProvider, string> = {
  anthropic: 'claude-sonnet-4-6',
  openai: 'gpt-4.1-mini',
};
const PUBLIC_BASE_URLS: Record<LiveProvider, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com',
};

export interface LiveOptions extends EngineSource {
  readonly provider: LiveProvider;
  readonly apiKey: string;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly ceiling?: number;
  readonly strategies?: readonly string[];
  readonly fetch?: typeof fetch;
  readonly log?: (line: string) => void;
}

export interface LiveCall extends ProviderUsage {
  readonly call: number;
  /** Cached tokens the offline model predicted for this call (o200k counts, so only roughly comparable). */
  readonly predictedCachedTokens: number;
}

export interface LiveRun {
  readonly strategy: string;
  readonly calls: LiveCall[];
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly totalInputTokens: number;
  /** Cost from the provider's telemetry at the price table's rates. */
  readonly cost: number;
  readonly cacheHitPercent: number;
  readonly predictedCacheHitPercent: number;
}

export interface LiveReport {
  readonly kind: 'live';
  readonly provider: LiveProvider;
  readonly model: string;
  readonly baseUrl: string;
  readonly ceiling: number;
  readonly skipped: Array<{ name: string; reason: string }>;
  readonly runs: LiveRun[];
}

function knownPrice(model: string): ModelPrice | null {
  try {
    return resolveModelPrice(model);
  } catch {
    return null;
  }
}

function telemetryCost(provider: LiveProvider, model: string, usage: ProviderUsage): number {
  const price = knownPrice(model);
  if (!price) return Number.NaN;
  const perToken = price.inputPerMillion / 1e6;
  const writeMultiplier = provider === 'anthropic' ? price.cacheWriteMultiplier : 1;
  return (
    perToken *
    (usage.inputTokens + usage.cacheReadTokens * price.cacheReadMultiplier + usage.cacheWriteTokens * writeMultiplier)
  );
}

async function runStrategy(
  definition: StrategyDefinition,
  options: LiveOptions,
  model: string,
  baseUrl: string,
  ceiling: number,
): Promise<LiveRun> {
  const transcript = transcriptFor(OUTAGE_SCRIPT, options.provider);
  const fixedParts = fixedPromptParts(OUTAGE_SCRIPT, transcript.system);
  const fetcher = options.fetch ?? fetch;
  let clock = 0;
  const strategy = definition.create({ ceiling, countTokens, now: () => clock });
  let measured: number | undefined;
  let previousParts: string[] = [];
  const calls: LiveCall[] = [];
  const minimumCacheable = knownPrice(model)?.minimumCacheableTokens ?? 1024;
  for (const [index, position] of callPositions(transcript.messages).entries()) {
    clock = Date.now();
    const view = strategy.prepare(transcript.messages.slice(0, position), { measuredInputTokens: measured }).messages;
    const parts = [...fixedParts, ...view.map(renderedMessage)];
    const prefix = leadingIdenticalTokens(previousParts, parts, parts.map(textTokens));
    const predictedCachedTokens = prefix >= minimumCacheable ? prefix : 0;
    previousParts = parts;
    const request = buildRequest(options.provider, {
      apiKey: options.apiKey,
      model,
      system: transcript.system,
      tools: OUTAGE_SCRIPT.tools,
      messages: view,
      cacheKey: `warpfold-live-${definition.name}`,
    });
    const response = await fetcher(new URL(request.path, baseUrl), {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(request.body),
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok)
      throw new Error(
        `${options.provider} answered ${response.status} on call ${index + 1} (${definition.name}): ${JSON.stringify(body).slice(0, 400)}`,
      );
    const usage = parseUsage(options.provider, body);
    measured = usage.totalInputTokens;
    calls.push({ call: index + 1, ...usage, predictedCachedTokens });
    options.log?.(
      `  ${definition.name} call ${index + 1}: input ${usage.totalInputTokens}, cache read ${usage.cacheReadTokens}, cache write ${usage.cacheWriteTokens}`,
    );
  }
  const sum = (pick: (call: LiveCall) => number): number => calls.reduce((total, call) => total + pick(call), 0);
  const totalInputTokens = sum((call) => call.totalInputTokens);
  const predictedTotal = sum((call) => call.predictedCachedTokens);
  return {
    strategy: definition.name,
    calls,
    inputTokens: sum((call) => call.inputTokens),
    cacheReadTokens: sum((call) => call.cacheReadTokens),
    cacheWriteTokens: sum((call) => call.cacheWriteTokens),
    totalInputTokens,
    cost: sum((call) => telemetryCost(options.provider, model, call)),
    cacheHitPercent: totalInputTokens ? (100 * sum((call) => call.cacheReadTokens)) / totalInputTokens : 0,
    predictedCacheHitPercent: totalInputTokens ? (100 * predictedTotal) / totalInputTokens : 0,
  };
}

export async function runLive(options: LiveOptions): Promise<LiveReport> {
  const model = options.model ?? DEFAULT_LIVE_MODELS[options.provider];
  const baseUrl = options.baseUrl ?? PUBLIC_BASE_URLS[options.provider];
  const ceiling = options.ceiling ?? 8_000;
  const { definitions, skipped } = await selectStrategies(options.strategies ?? DEFAULT_LIVE_STRATEGIES, options);
  const runs: LiveRun[] = [];
  for (const definition of definitions) runs.push(await runStrategy(definition, options, model, baseUrl, ceiling));
  return { kind: 'live', provider: options.provider, model, baseUrl, ceiling, skipped, runs };
}

export function liveTable(report: LiveReport): string {
  const header = [
    'strategy',
    'calls',
    'input tokens (all)',
    'cache read',
    'cache write',
    'uncached',
    'cache hit %',
    'predicted hit %',
    'cost $',
  ];
  const rows = report.runs.map((run): Cell[] => [
    run.strategy,
    run.calls.length,
    formatInteger(run.totalInputTokens),
    formatInteger(run.cacheReadTokens),
    formatInteger(run.cacheWriteTokens),
    formatInteger(run.inputTokens),
    run.cacheHitPercent.toFixed(1),
    run.predictedCacheHitPercent.toFixed(1),
    Number.isNaN(run.cost) ? '—' : run.cost.toFixed(4),
  ]);
  return markdownTable(header, rows);
}

/** Which provider and key the environment offers, Anthropic first; null when neither key is set. */
export function providerFromEnvironment(
  environment: NodeJS.ProcessEnv,
  wanted?: string,
): { provider: LiveProvider; apiKey: string; baseUrl?: string } | null {
  const candidates: LiveProvider[] = wanted ? [wanted as LiveProvider] : ['anthropic', 'openai'];
  for (const provider of candidates) {
    const apiKey = environment[provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'];
    if (apiKey)
      return {
        provider,
        apiKey,
        baseUrl: environment[provider === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL'] || undefined,
      };
  }
  return null;
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  const found = providerFromEnvironment(process.env, parsed.provider);
  if (!found) {
    console.log(
      `live bench skipped: no ${parsed.provider === 'openai' ? 'OPENAI_API_KEY' : parsed.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'ANTHROPIC_API_KEY or OPENAI_API_KEY'} in the environment.`,
    );
    return;
  }
  const report = await runLive({
    ...found,
    baseUrl: parsed['base-url'] ?? found.baseUrl,
    model: parsed.model,
    ceiling: parsed.ceiling ? Number(parsed.ceiling) : undefined,
    strategies: nameList(parsed.strategies, DEFAULT_LIVE_STRATEGIES),
    enginePath: parsed.engine,
    log: (line) => console.error(line),
  });
  for (const { name, reason } of report.skipped) console.error(`  ${name}: skipped (${reason})`);
  console.log(`${report.provider} ${report.model} at ${report.baseUrl}, ceiling ${report.ceiling}`);
  console.log(liveTable(report));
  const name = `live-${report.provider}`;
  const written = writeResults(
    parsed.out ?? RUN_OUTPUT,
    name,
    report,
    `# Live run (${report.provider}, ${report.model})\n\n${liveTable(report)}`,
  );
  console.log(`\nwrote ${repoRelative(written.json)} and ${repoRelative(written.markdown)}`);
}

if (isMainModule(import.meta.url)) await main();
