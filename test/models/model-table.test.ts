import { describe, expect, it } from 'vitest';
import { contextWindowForModel, findModel, MODEL_TABLE, MODEL_WINDOWS } from '../../src/budget/index.ts';
import { findModelPrice, PRICE_TABLE, resolveModelPrice } from '../../src/tokens/index.ts';
import { WarpfoldError } from '../../src/errors.ts';
import { thrownBy } from '../helpers/thrown.ts';

describe('the model table', () => {
  it('dates every entry and names its source page', () => {
    for (const entry of MODEL_TABLE) {
      expect(entry.checked, entry.prefix).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(entry.source, entry.prefix).toMatch(/^https:\/\//);
      expect(entry.prefix).toBe(entry.prefix.toLowerCase());
    }
    expect(new Set(MODEL_TABLE.map((entry) => entry.prefix)).size).toBe(MODEL_TABLE.length);
  });

  it('is the table budget and tokens both read', () => {
    expect(MODEL_WINDOWS.map((window) => window.prefix)).toEqual(MODEL_TABLE.map((entry) => entry.prefix));
    for (const entry of MODEL_TABLE.filter((candidate) => candidate.prices)) {
      expect(PRICE_TABLE[entry.prefix].inputPerMillion).toBe(entry.prices!.inputPerMillion);
      expect(contextWindowForModel(entry.prefix)).toBe(entry.contextWindowTokens);
    }
  });

  it('prices what agents run today at their pricing pages', () => {
    const expectRates = (model: string, rates: readonly number[]) => {
      const prices = findModel(model)?.prices;
      expect(prices, model).toBeDefined();
      expect(
        [
          prices!.inputPerMillion,
          prices!.outputPerMillion,
          prices!.cacheWriteFiveMinutesPerMillion,
          prices!.cacheReadPerMillion,
        ],
        model,
      ).toEqual(rates);
    };
    expectRates('claude-opus-4-5-20251101', [5, 25, 6.25, 0.5]);
    expectRates('claude-opus-5-5', [4, 20, 5, 0.2]);
    expectRates('claude-sonnet-4-5-20250929', [3, 15, 3.75, 0.3]);
    expectRates('gpt-5-codex', [1.25, 10, 1.25, 0.125]);
    expectRates('gpt-5.1-codex-max', [1.25, 10, 1.25, 0.125]);
    expectRates('gemini-2.5-pro', [1.25, 10, 1.25, 0.125]);
    expectRates('gemini-3-pro-preview', [2, 12, 2, 0.2]);
    expect(findModel('claude-opus-4-5-20251101')?.contextWindowTokens).toBe(200_000);
    expect(findModel('claude-opus-5-5')?.contextWindowTokens).toBe(1_000_000);
  });

  it('resolves vendor and dated ids to the same entry', () => {
    expect(findModel('us.anthropic.claude-opus-4-5-20251101-v1:0')?.prefix).toBe('claude-opus-4-5');
    expect(findModel('openrouter/openai/gpt-5-codex')?.prefix).toBe('gpt-5-codex');
    expect(resolveModelPrice('claude-opus-4-5-20251101').inputPerMillion).toBe(5);
    expect(resolveModelPrice('claude-opus-4-5-20251101').cacheReadMultiplier).toBe(0.1);
  });

  it('leaves a model it has no price for unpriced instead of guessing', () => {
    expect(findModelPrice('my-own-model')).toBeNull();
    expect(findModelPrice('glm-4.6')).toBeNull(); // a window, but no checked price
    expect(findModelPrice('claude-3-5-sonnet-20241022')).toBeNull();
    expect(thrownBy(() => resolveModelPrice('my-own-model'), WarpfoldError).field).toBe('model');
  });
});
