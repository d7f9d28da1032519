import type { ModelEntry, ModelPrices, ModelProvider } from './types.ts';

/*
 * The one table of models: window, prices and where they come from. Lookup takes the longest
 * prefix that ends at an id boundary, so `claude-sonnet-4-5-20250929` resolves through
 * `claude-sonnet-4-5`, and an unlisted minor version (`gpt-5.9`) falls back to its family's
 * smaller, safe window. A family entry carries prices only when every model under it costs the
 * same; otherwise a model without its own priced entry is unpriced, never guessed.
 *
 * Windows: Anthropic 200K for Claude 3.x and 4.0-4.5, 1M for Sonnet 4.6 / Opus 4.6+ and the 5.x
 * line (the 1M beta of Sonnet 4 / 4.5 is chosen with a `[1m]` / `-1m` suffix); OpenAI GPT-5 to
 * 5.3-codex 400K with 272K input, GPT-5.4+ 1,050,000 with 922K input; Codex CLI caps every model
 * at 272,000 (budget/engine-windows.ts); Gemini input limits 1,048,576.
 *
 * Prices: USD per million tokens, standard tier, prompts up to 200K where a provider tiers by
 * prompt length (Gemini 2.5 Pro, Gemini 3 Pro) or 100K (Haiku 5.5). Anthropic writes are 1.25x
 * (5 minutes) and 2x (1 hour) of input; OpenAI and Gemini implicit caching charge no write fee.
 */

const ANTHROPIC = 'https://platform.claude.com/docs/en/about-claude/pricing';
const ANTHROPIC_MODELS = 'https://platform.claude.com/docs/en/about-claude/models/overview';
const OPENAI = 'https://developers.openai.com/api/docs/pricing';
const OPENAI_MODELS = 'https://platform.openai.com/docs/models';
const GOOGLE = 'https://ai.google.dev/gemini-api/docs/pricing';
const GOOGLE_MODELS = 'https://ai.google.dev/gemini-api/docs/models';
const PRICES_CHECKED = '2026-12-04';
const WINDOWS_CHECKED = '2026-11-29';

/** [input, output, 5-minute write, 1-hour write, cache read], USD per million. */
type AnthropicRates = readonly [number, number, number, number, number];

function claude(prefix: string, contextWindowTokens: number, rates?: AnthropicRates, minimum = 1_024): ModelEntry {
  const base = { prefix, provider: 'anthropic' as const, contextWindowTokens };
  if (rates === undefined) return { ...base, checked: WINDOWS_CHECKED, source: ANTHROPIC_MODELS };
  const [inputPerMillion, outputPerMillion, five, hour, read] = rates;
  const prices: ModelPrices = {
    inputPerMillion,
    outputPerMillion,
    cacheReadPerMillion: read,
    cacheWriteFiveMinutesPerMillion: five,
    cacheWriteOneHourPerMillion: hour,
    minimumCacheableTokens: minimum,
  };
  return { ...base, prices, checked: PRICES_CHECKED, source: ANTHROPIC };
}

/** Writes cost nothing extra: the write price is the input price. */
function writeFree(input: number, output: number, read: number, minimum: number): ModelPrices {
  return {
    inputPerMillion: input,
    outputPerMillion: output,
    cacheReadPerMillion: read,
    cacheWriteFiveMinutesPerMillion: input,
    cacheWriteOneHourPerMillion: input,
    minimumCacheableTokens: minimum,
  };
}

function gpt(
  prefix: string,
  window: readonly [number, number?],
  rates?: readonly [input: number, output: number, read: number],
): ModelEntry {
  const [contextWindowTokens, inputLimitTokens] = window;
  const base = {
    prefix,
    provider: 'openai' as const,
    contextWindowTokens,
    ...(inputLimitTokens === undefined ? {} : { inputLimitTokens }),
  };
  if (rates === undefined) return { ...base, checked: WINDOWS_CHECKED, source: OPENAI_MODELS };
  return { ...base, prices: writeFree(rates[0], rates[1], rates[2], 1_024), checked: PRICES_CHECKED, source: OPENAI };
}

function gemini(
  prefix: string,
  contextWindowTokens: number,
  rates?: readonly [input: number, output: number, read: number],
): ModelEntry {
  const base = { prefix, provider: 'google' as const, contextWindowTokens };
  if (rates === undefined) return { ...base, checked: WINDOWS_CHECKED, source: GOOGLE_MODELS };
  return { ...base, prices: writeFree(rates[0], rates[1], rates[2], 2_048), checked: PRICES_CHECKED, source: GOOGLE };
}

function windowOnly(provider: ModelProvider, source: string) {
  return (prefix: string, contextWindowTokens: number): ModelEntry => ({
    prefix,
    provider,
    contextWindowTokens,
    checked: WINDOWS_CHECKED,
    source,
  });
}

const GPT5_WINDOW = [400_000, 272_000] as const;
const GPT5_4_WINDOW = [1_050_000, 922_000] as const;
const OPUS_4 = [15, 75, 18.75, 30, 1.5] as const;
const OPUS_4_5 = [5, 25, 6.25, 10, 0.5] as const;
const SONNET_4 = [3, 15, 3.75, 6, 0.3] as const;

const anthropic: ModelEntry[] = [
  claude('claude-3', 200_000),
  claude('claude-3-7-sonnet', 200_000, SONNET_4),
  claude('claude-3-5-haiku', 200_000, [0.8, 4, 1, 1.6, 0.08], 2_048),
  claude('claude-sonnet-4', 200_000, SONNET_4),
  claude('claude-sonnet-4-5', 200_000, SONNET_4),
  claude('claude-sonnet-4-6', 1_000_000, SONNET_4),
  claude('claude-opus-4', 200_000, OPUS_4),
  claude('claude-opus-4-1', 200_000, OPUS_4),
  claude('claude-opus-4-5', 200_000, OPUS_4_5, 4_096),
  claude('claude-opus-4-6', 1_000_000, OPUS_4_5, 4_096),
  claude('claude-opus-4-7', 1_000_000, OPUS_4_5, 4_096),
  claude('claude-opus-4-8', 1_000_000, OPUS_4_5),
  claude('claude-haiku-4', 200_000),
  claude('claude-haiku-4-5', 200_000, [1, 5, 1.25, 2, 0.1], 4_096),
  claude('claude-sonnet-5', 1_000_000, [2, 10, 2.5, 4, 0.2]),
  claude('claude-sonnet-5-5', 1_000_000, [2, 10, 2.5, 4, 0.1]),
  claude('claude-opus-5', 1_000_000, OPUS_4_5),
  claude('claude-opus-5-5', 1_000_000, [4, 20, 5, 8, 0.2]),
  claude('claude-haiku-5', 200_000),
  claude('claude-haiku-5-5', 1_000_000, [0.1, 0.5, 0.125, 0.2, 0.01]),
  claude('claude-fable-5', 1_000_000),
  claude('claude-fable-5-1', 1_000_000, [10, 50, 12.5, 20, 1]),
];

const openai: ModelEntry[] = [
  gpt('gpt-4', [8_192]),
  gpt('gpt-4-turbo', [128_000]),
  gpt('gpt-4o', [128_000]),
  gpt('chatgpt-4o', [128_000]),
  gpt('gpt-4.1', [1_047_576], [2, 8, 0.5]),
  gpt('gpt-4.1-mini', [1_047_576], [0.4, 1.6, 0.1]),
  gpt('gpt-5', GPT5_WINDOW, [1.25, 10, 0.125]),
  gpt('gpt-5-codex', GPT5_WINDOW, [1.25, 10, 0.125]),
  gpt('gpt-5-mini', GPT5_WINDOW, [0.25, 2, 0.025]),
  gpt('gpt-5-nano', GPT5_WINDOW, [0.05, 0.4, 0.005]),
  gpt('gpt-5.1', GPT5_WINDOW, [1.25, 10, 0.125]),
  gpt('gpt-5.1-codex', GPT5_WINDOW, [1.25, 10, 0.125]),
  gpt('gpt-5.1-codex-mini', GPT5_WINDOW, [0.25, 2, 0.025]),
  gpt('gpt-5.1-codex-max', GPT5_WINDOW, [1.25, 10, 0.125]),
  gpt('gpt-5.2', GPT5_WINDOW, [1.75, 14, 0.175]),
  gpt('gpt-5.2-codex', GPT5_WINDOW, [1.75, 14, 0.175]),
  gpt('gpt-5.3-codex', GPT5_WINDOW, [1.75, 14, 0.175]),
  gpt('gpt-5.4', GPT5_4_WINDOW),
  gpt('gpt-5.4-mini', GPT5_WINDOW),
  gpt('gpt-5.4-nano', GPT5_WINDOW),
  gpt('gpt-5.5', GPT5_4_WINDOW),
  gpt('gpt-5.6', GPT5_4_WINDOW),
  gpt('gpt-oss', [131_072]),
  gpt('codex-mini', [200_000]),
  gpt('o1', [200_000]),
  gpt('o1-mini', [128_000]),
  gpt('o1-preview', [128_000]),
  gpt('o3', [200_000]),
  gpt('o4-mini', [200_000]),
];

const google: ModelEntry[] = [
  gemini('gemini-1.5-flash', 1_048_576),
  gemini('gemini-1.5-pro', 2_097_152),
  gemini('gemini-2.0-flash', 1_048_576),
  gemini('gemini-2.5-pro', 1_048_576, [1.25, 10, 0.125]),
  gemini('gemini-2.5-flash', 1_048_576, [0.3, 2.5, 0.03]),
  gemini('gemini-2.5-flash-lite', 1_048_576, [0.1, 0.4, 0.01]),
  gemini('gemini-2.5-flash-image', 32_768),
  gemini('gemini-3', 1_048_576),
  gemini('gemini-3-pro', 1_048_576, [2, 12, 0.2]),
  gemini('gemini-3-flash', 1_048_576, [0.5, 3, 0.05]),
  gemini('gemini-3-pro-image', 65_536),
  gemini('gemini-3.1', 1_048_576),
];

const zhipuWindow = windowOnly('zhipu', 'https://docs.z.ai');
const xaiWindow = windowOnly('xai', 'https://docs.x.ai/docs/models');
const mistralWindow = windowOnly('mistral', 'https://docs.mistral.ai/getting-started/models');
const minimaxWindow = windowOnly('minimax', 'https://platform.minimax.io/docs');
const deepseekWindow = windowOnly('deepseek', 'https://api-docs.deepseek.com/quick_start/pricing');
const moonshotWindow = windowOnly('moonshot', 'https://platform.moonshot.ai/docs');
const qwenWindow = windowOnly('alibaba', 'https://www.alibabacloud.com/help/en/model-studio/models');

const others: ModelEntry[] = [
  zhipuWindow('glm-4.5', 128_000),
  zhipuWindow('glm-4.6', 200_000),
  zhipuWindow('glm-4.6v', 128_000),
  zhipuWindow('glm-4.7', 200_000),
  zhipuWindow('glm-5', 200_000),
  zhipuWindow('glm-5.2', 1_000_000),
  xaiWindow('grok-3', 131_072),
  xaiWindow('grok-4', 256_000),
  xaiWindow('grok-4-fast', 2_000_000),
  xaiWindow('grok-4-1-fast', 2_000_000),
  xaiWindow('grok-4.1-fast', 2_000_000),
  xaiWindow('grok-code-fast', 256_000),
  mistralWindow('mistral-large', 128_000),
  mistralWindow('mistral-large-2512', 256_000),
  mistralWindow('mistral-large-latest', 256_000),
  mistralWindow('mistral-medium', 128_000),
  mistralWindow('mistral-small', 128_000),
  mistralWindow('codestral', 256_000),
  mistralWindow('devstral', 128_000),
  minimaxWindow('minimax-text-01', 1_000_000),
  minimaxWindow('minimax-m1', 1_000_000),
  minimaxWindow('minimax-m2', 204_800),
  deepseekWindow('deepseek-chat', 128_000),
  deepseekWindow('deepseek-reasoner', 128_000),
  deepseekWindow('deepseek-v3', 128_000),
  deepseekWindow('deepseek-r1', 128_000),
  moonshotWindow('kimi-k2', 131_072),
  moonshotWindow('kimi-k2-0905', 262_144),
  moonshotWindow('kimi-k2-turbo', 262_144),
  moonshotWindow('kimi-k2-thinking', 262_144),
  moonshotWindow('kimi-k2.5', 262_144),
  moonshotWindow('kimi-k2.6', 262_144),
  moonshotWindow('kimi-k2.7', 262_144),
  moonshotWindow('moonshot-v1-8k', 8_192),
  moonshotWindow('moonshot-v1-32k', 32_768),
  moonshotWindow('moonshot-v1-128k', 131_072),
  qwenWindow('qwen3-coder', 262_144),
  qwenWindow('qwen3-coder-plus', 1_048_576),
  qwenWindow('qwen3-coder-flash', 1_048_576),
  qwenWindow('qwen3-max', 262_144),
  qwenWindow('qwen-plus', 1_000_000),
  qwenWindow('qwen-flash', 1_000_000),
  qwenWindow('qwen-turbo', 1_000_000),
  qwenWindow('qwen-max', 32_768),
];

export const MODEL_TABLE: readonly ModelEntry[] = Object.freeze(
  [...anthropic, ...openai, ...google, ...others].map((entry) =>
    Object.freeze(entry.prices ? { ...entry, prices: Object.freeze(entry.prices) } : entry),
  ),
);
