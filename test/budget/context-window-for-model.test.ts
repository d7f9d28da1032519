import { describe, it, expect } from 'vitest';
import { MODEL_WINDOWS, contextWindowForModel } from '../../src/budget/index.ts';

describe('contextWindowForModel', () => {
  it.each([
    ['claude-sonnet-4-20250514', undefined, 200_000],
    ['claude-3-5-haiku-20241022', undefined, 200_000],
    ['claude-haiku-4-5', undefined, 200_000],
    ['claude-opus-4-6', undefined, 1_000_000],
    ['claude-sonnet-5', undefined, 1_000_000],
    ['claude-sonnet-4[1m]', 'claude-cli', 1_000_000],
    ['anthropic/claude-sonnet-4', undefined, 200_000],
    ['us.anthropic.claude-sonnet-4-20250514-v1:0', undefined, 200_000],
    ['claude-sonnet-4@20250514', undefined, 200_000],
    ['gpt-4', 'openai', 8_192],
    ['gpt-4-turbo-2024-04-09', 'openai', 128_000],
    ['gpt-4o-mini', 'openai', 128_000],
    ['gpt-4.1-nano', 'openai', 1_047_576],
    ['gpt-5-mini', 'openai', 400_000],
    ['gpt-5.1-codex-max', 'openai', 400_000],
    ['gpt-5.4', 'openai', 1_050_000],
    ['gpt-5.4-mini', 'openai', 400_000],
    ['gpt-5.5', 'codex', 272_000],
    ['gpt-5.5', 'Codex-CLI', 272_000],
    ['o1-mini', 'openai', 128_000],
    ['o3-pro', 'openai', 200_000],
    ['o4-mini', 'openai', 200_000],
    ['gemini-2.5-flash-lite', 'gemini', 1_048_576],
    ['gemini-2.5-flash-image', 'gemini', 32_768],
    ['gemini-3-pro-preview', 'gemini', 1_048_576],
    ['gemini-3-pro-image-preview', 'gemini', 65_536],
    ['glm-4.6', 'glm', 200_000],
    ['glm-4.6v', 'glm', 128_000],
    ['glm-5.2', 'glm', 1_000_000],
    ['grok-4-0709', 'grok', 256_000],
    ['grok-4-fast-reasoning', 'grok', 2_000_000],
    ['mistral-large-latest', 'mistral', 256_000],
    ['mistral-small-2506', 'mistral', 128_000],
    ['MiniMax-M1', 'minimax', 1_000_000],
    ['deepseek-reasoner', 'deepseek', 128_000],
    ['kimi-k2-0711-preview', 'kimi', 131_072],
    ['kimi-k2-0905-preview', 'kimi', 262_144],
    ['moonshot-v1-32k', 'kimi', 32_768],
    ['qwen3-coder-plus', 'qwen', 1_048_576],
    ['qwen3-max', 'qwen', 262_144],
  ] as const)('%s on %s → %d', (model, engine, window) => {
    expect(contextWindowForModel(model, engine)).toBe(window);
  });

  it('returns null for unknown or empty models', () => {
    expect(contextWindowForModel('mystery-7b')).toBeNull();
    expect(contextWindowForModel('')).toBeNull();
    expect(contextWindowForModel('gpt-40')).toBeNull();
  });

  it('does not inflate the window for a 1M marker outside families that sell one', () => {
    expect(contextWindowForModel('gpt-4o-1m')).toBe(128_000);
  });

  it('falls back to the family floor for an unlisted minor version', () => {
    expect(contextWindowForModel('gpt-5.9')).toBe(400_000);
  });

  it('has lowercase, unique prefixes and positive windows', () => {
    const prefixes = MODEL_WINDOWS.map((entry) => entry.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const entry of MODEL_WINDOWS) {
      expect(entry.prefix).toBe(entry.prefix.toLowerCase());
      expect(entry.contextWindowTokens).toBeGreaterThanOrEqual(8_000);
      if (entry.inputLimitTokens !== undefined) expect(entry.inputLimitTokens).toBeLessThan(entry.contextWindowTokens);
    }
  });
});
