import type { ModelWindow } from './types.ts';

/*
 * Context windows by model-id prefix. Lookup takes the longest prefix that ends at an id
 * boundary, so `claude-sonnet-4-5-20250929` resolves through `claude-sonnet-4-5`, and an
 * unlisted minor version (`gpt-5.9`) falls back to its family's smaller, safe window.
 * Windows are totals (input + output) unless `inputLimitTokens` says the input side is capped.
 *
 * Sources (provider documentation, as stored at the time of writing; pass
 * `contextWindowTokens` when your deployment differs):
 * - Anthropic: platform.claude.com/docs "Models overview" and per-model pages; 200K for
 *   Claude 3.x and 4.0-4.5, 1M for Sonnet 4.6 / Opus 4.6+ and the 5.x line. The 1M beta for
 *   Sonnet 4 / 4.5 is chosen with a `[1m]` / `-1m` suffix (see context-window-for-model.ts).
 * - OpenAI: platform.openai.com/docs/models; GPT-4.1 1,047,576; GPT-5 / 5.1 / 5.2 / 5.3-codex
 *   400K with 272K input (128K output); GPT-5.4 / 5.5 / 5.6 1,050,000 with 922K input;
 *   o1 / o3 / o4-mini 200K; GPT-4o 128K; GPT-4 8,192.
 * - Codex CLI caps every model at its catalog `context_window` of 272,000 (engine-windows.ts;
 *   openai/codex issue #19306).
 * - Google: ai.google.dev/gemini-api/docs/models; input limit 1,048,576 for 1.5 Flash, 2.0,
 *   2.5 and 3.x; 2,097,152 for 1.5 Pro; image models 32K-64K.
 * - Z.ai: docs.z.ai; GLM-4.5 128K, GLM-4.6 / 4.7 / 5 / 5.1 200K, GLM-5.2 1M, GLM-4.6V 128K.
 * - xAI: docs.x.ai/docs/models; Grok 3 131,072; Grok 4 256K; Grok 4 Fast / 4.1 Fast 2M.
 * - Mistral: docs.mistral.ai/getting-started/models; Large 3 (2512, latest) 256K, older Large,
 *   Medium and Small 128K, Codestral 256K.
 * - MiniMax: platform.minimax.io docs; M1 and Text-01 1M, M2.x 204,800.
 * - DeepSeek: api-docs.deepseek.com "Models & Pricing"; deepseek-chat / -reasoner (V3.x) 128K.
 * - Moonshot: platform.moonshot.ai docs; kimi-k2 (0711) 131,072, K2 0905 / turbo / thinking /
 *   K2.5+ 262,144, moonshot-v1-8k/32k/128k as named.
 * - Alibaba Model Studio: Qwen3-Coder Plus/Flash 1,048,576, Qwen3-Max 262,144,
 *   qwen-plus / qwen-flash / qwen-turbo 1M, qwen-max 32,768.
 */
const anthropic: ModelWindow[] = [
  { prefix: 'claude-3', contextWindowTokens: 200_000 },
  { prefix: 'claude-sonnet-4', contextWindowTokens: 200_000 },
  { prefix: 'claude-opus-4', contextWindowTokens: 200_000 },
  { prefix: 'claude-haiku-4', contextWindowTokens: 200_000 },
  { prefix: 'claude-sonnet-4-6', contextWindowTokens: 1_000_000 },
  { prefix: 'claude-opus-4-6', contextWindowTokens: 1_000_000 },
  { prefix: 'claude-opus-4-7', contextWindowTokens: 1_000_000 },
  { prefix: 'claude-opus-4-8', contextWindowTokens: 1_000_000 },
  { prefix: 'claude-sonnet-5', contextWindowTokens: 1_000_000 },
  { prefix: 'claude-opus-5', contextWindowTokens: 1_000_000 },
  { prefix: 'claude-haiku-5', contextWindowTokens: 200_000 },
  { prefix: 'claude-fable-5', contextWindowTokens: 1_000_000 },
];

const openai: ModelWindow[] = [
  { prefix: 'gpt-4', contextWindowTokens: 8_192 },
  { prefix: 'gpt-4-turbo', contextWindowTokens: 128_000 },
  { prefix: 'gpt-4o', contextWindowTokens: 128_000 },
  { prefix: 'chatgpt-4o', contextWindowTokens: 128_000 },
  { prefix: 'gpt-4.1', contextWindowTokens: 1_047_576 },
  { prefix: 'gpt-5', contextWindowTokens: 400_000, inputLimitTokens: 272_000 },
  { prefix: 'gpt-5.4', contextWindowTokens: 1_050_000, inputLimitTokens: 922_000 },
  { prefix: 'gpt-5.4-mini', contextWindowTokens: 400_000, inputLimitTokens: 272_000 },
  { prefix: 'gpt-5.4-nano', contextWindowTokens: 400_000, inputLimitTokens: 272_000 },
  { prefix: 'gpt-5.5', contextWindowTokens: 1_050_000, inputLimitTokens: 922_000 },
  { prefix: 'gpt-5.6', contextWindowTokens: 1_050_000, inputLimitTokens: 922_000 },
  { prefix: 'gpt-oss', contextWindowTokens: 131_072 },
  { prefix: 'codex-mini', contextWindowTokens: 200_000 },
  { prefix: 'o1', contextWindowTokens: 200_000 },
  { prefix: 'o1-mini', contextWindowTokens: 128_000 },
  { prefix: 'o1-preview', contextWindowTokens: 128_000 },
  { prefix: 'o3', contextWindowTokens: 200_000 },
  { prefix: 'o4-mini', contextWindowTokens: 200_000 },
];

const google: ModelWindow[] = [
  { prefix: 'gemini-1.5-flash', contextWindowTokens: 1_048_576 },
  { prefix: 'gemini-1.5-pro', contextWindowTokens: 2_097_152 },
  { prefix: 'gemini-2.0-flash', contextWindowTokens: 1_048_576 },
  { prefix: 'gemini-2.5-pro', contextWindowTokens: 1_048_576 },
  { prefix: 'gemini-2.5-flash', contextWindowTokens: 1_048_576 },
  { prefix: 'gemini-2.5-flash-image', contextWindowTokens: 32_768 },
  { prefix: 'gemini-3', contextWindowTokens: 1_048_576 },
  { prefix: 'gemini-3-pro-image', contextWindowTokens: 65_536 },
  { prefix: 'gemini-3.1', contextWindowTokens: 1_048_576 },
];

const zhipu: ModelWindow[] = [
  { prefix: 'glm-4.5', contextWindowTokens: 128_000 },
  { prefix: 'glm-4.6', contextWindowTokens: 200_000 },
  { prefix: 'glm-4.6v', contextWindowTokens: 128_000 },
  { prefix: 'glm-4.7', contextWindowTokens: 200_000 },
  { prefix: 'glm-5', contextWindowTokens: 200_000 },
  { prefix: 'glm-5.2', contextWindowTokens: 1_000_000 },
];

const xai: ModelWindow[] = [
  { prefix: 'grok-3', contextWindowTokens: 131_072 },
  { prefix: 'grok-4', contextWindowTokens: 256_000 },
  { prefix: 'grok-4-fast', contextWindowTokens: 2_000_000 },
  { prefix: 'grok-4-1-fast', contextWindowTokens: 2_000_000 },
  { prefix: 'grok-4.1-fast', contextWindowTokens: 2_000_000 },
  { prefix: 'grok-code-fast', contextWindowTokens: 256_000 },
];

const mistral: ModelWindow[] = [
  { prefix: 'mistral-large', contextWindowTokens: 128_000 },
  { prefix: 'mistral-large-2512', contextWindowTokens: 256_000 },
  { prefix: 'mistral-large-latest', contextWindowTokens: 256_000 },
  { prefix: 'mistral-medium', contextWindowTokens: 128_000 },
  { prefix: 'mistral-small', contextWindowTokens: 128_000 },
  { prefix: 'codestral', contextWindowTokens: 256_000 },
  { prefix: 'devstral', contextWindowTokens: 128_000 },
];

const minimax: ModelWindow[] = [
  { prefix: 'minimax-text-01', contextWindowTokens: 1_000_000 },
  { prefix: 'minimax-m1', contextWindowTokens: 1_000_000 },
  { prefix: 'minimax-m2', contextWindowTokens: 204_800 },
];

const deepseek: ModelWindow[] = [
  { prefix: 'deepseek-chat', contextWindowTokens: 128_000 },
  { prefix: 'deepseek-reasoner', contextWindowTokens: 128_000 },
  { prefix: 'deepseek-v3', contextWindowTokens: 128_000 },
  { prefix: 'deepseek-r1', contextWindowTokens: 128_000 },
];

const moonshot: ModelWindow[] = [
  { prefix: 'kimi-k2', contextWindowTokens: 131_072 },
  { prefix: 'kimi-k2-0905', contextWindowTokens: 262_144 },
  { prefix: 'kimi-k2-turbo', contextWindowTokens: 262_144 },
  { prefix: 'kimi-k2-thinking', contextWindowTokens: 262_144 },
  { prefix: 'kimi-k2.5', contextWindowTokens: 262_144 },
  { prefix: 'kimi-k2.6', contextWindowTokens: 262_144 },
  { prefix: 'kimi-k2.7', contextWindowTokens: 262_144 },
  { prefix: 'moonshot-v1-8k', contextWindowTokens: 8_192 },
  { prefix: 'moonshot-v1-32k', contextWindowTokens: 32_768 },
  { prefix: 'moonshot-v1-128k', contextWindowTokens: 131_072 },
];

const qwen: ModelWindow[] = [
  { prefix: 'qwen3-coder', contextWindowTokens: 262_144 },
  { prefix: 'qwen3-coder-plus', contextWindowTokens: 1_048_576 },
  { prefix: 'qwen3-coder-flash', contextWindowTokens: 1_048_576 },
  { prefix: 'qwen3-max', contextWindowTokens: 262_144 },
  { prefix: 'qwen-plus', contextWindowTokens: 1_000_000 },
  { prefix: 'qwen-flash', contextWindowTokens: 1_000_000 },
  { prefix: 'qwen-turbo', contextWindowTokens: 1_000_000 },
  { prefix: 'qwen-max', contextWindowTokens: 32_768 },
];

export const MODEL_WINDOWS: readonly ModelWindow[] = Object.freeze(
  [...anthropic, ...openai, ...google, ...zhipu, ...xai, ...mistral, ...minimax, ...deepseek, ...moonshot, ...qwen].map(
    (entry) => Object.freeze(entry),
  ),
);

/** Families whose 1M variant is selected by the id itself (`claude-sonnet-4[1m]`, `claude-sonnet-4-5-1m`). */
export const ONE_MILLION_VARIANT_PREFIXES: readonly string[] = Object.freeze(['claude-']);
export const ONE_MILLION_TOKENS = 1_000_000;
