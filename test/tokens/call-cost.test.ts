import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callCost, leadingIdenticalTokens, PRICE_TABLE, resolveModelPrice } from '../../src/tokens/index.ts';

const close = (actual: number, expected: number) => expect(actual).toBeCloseTo(expected, 12);

describe('callCost', () => {
  it('prices a Sonnet-class call like the reference scorer: reads $0.30, writes $3.75 per million', () => {
    const cost = callCost({ totalTokens: 10_000, cachedPrefixTokens: 8_000, writeBelowMinimum: true });
    expect(cost.cacheReadTokens).toBe(8_000);
    expect(cost.cacheWriteTokens).toBe(2_000);
    expect(cost.freshTokens).toBe(0);
    close(cost.inputCost, (8_000 * 0.3 + 2_000 * 3.75) / 1e6);
  });

  it('does not read a cached prefix below the minimum cacheable length', () => {
    const cost = callCost({ totalTokens: 5_000, cachedPrefixTokens: 1_023, model: 'claude-sonnet-4-5' });
    expect(cost.cacheReadTokens).toBe(0);
    expect(cost.cacheWriteTokens).toBe(5_000);
    expect(
      callCost({ totalTokens: 5_000, cachedPrefixTokens: 1_024, model: 'claude-sonnet-4-5' }).cacheReadTokens,
    ).toBe(1_024);
  });

  it('bills a prompt too short to cache as fresh input, unless told to follow the scorer', () => {
    const real = callCost({ totalTokens: 900, cachedPrefixTokens: 0, model: 'claude-sonnet-4-5' });
    expect(real.freshTokens).toBe(900);
    close(real.inputCost, (900 * 3) / 1e6);
    const scorer = callCost({
      totalTokens: 900,
      cachedPrefixTokens: 0,
      model: 'claude-sonnet-4-5',
      writeBelowMinimum: true,
    });
    close(scorer.inputCost, (900 * 3.75) / 1e6);
  });

  it('has no write premium on OpenAI and uses the model discount for reads', () => {
    const cost = callCost({ totalTokens: 4_000, cachedPrefixTokens: 3_000, model: 'gpt-4.1' });
    close(cost.cacheReadCost, (3_000 * 0.5) / 1e6);
    close(cost.cacheWriteCost, (1_000 * 2) / 1e6);
  });

  it('charges the 1-hour write price and output when asked', () => {
    const cost = callCost({
      totalTokens: 2_000,
      cachedPrefixTokens: 0,
      model: 'claude-opus-4-8',
      cacheLifetime: '1h',
      outputTokens: 100,
    });
    close(cost.cacheWriteCost, (2_000 * 10) / 1e6);
    close(cost.outputCost, (100 * 25) / 1e6);
    close(cost.totalCost, cost.inputCost + cost.outputCost);
  });

  it('splits every prompt into reads, writes and fresh tokens that add up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300_000 }),
        fc.integer({ min: 0, max: 300_000 }),
        fc.constantFrom(...Object.keys(PRICE_TABLE)),
        (total, cached, model) => {
          const cost = callCost({ totalTokens: total, cachedPrefixTokens: cached, model });
          expect(cost.cacheReadTokens + cost.cacheWriteTokens + cost.freshTokens).toBe(total);
          expect(cost.inputCost).toBeGreaterThanOrEqual(0);
          // Caching never makes a call dearer than the same call with nothing cached.
          expect(cost.inputCost).toBeLessThanOrEqual(
            callCost({ totalTokens: total, cachedPrefixTokens: 0, model }).inputCost + 1e-12,
          );
        },
      ),
    );
  });
});

describe('price table', () => {
  it('resolves dated model ids and refuses unknown ones', () => {
    expect(resolveModelPrice('claude-sonnet-4-5-20250929').model).toBe('claude-sonnet-4-5');
    expect(resolveModelPrice('gpt-4.1-2025-04-14').model).toBe('gpt-4.1');
    expect(() => resolveModelPrice('no-such-model')).toThrow(/no price/);
  });

  it('keeps every entry consistent', () => {
    for (const [key, price] of Object.entries(PRICE_TABLE)) {
      expect(price.model).toBe(key);
      expect(price.cacheReadMultiplier).toBeGreaterThan(0);
      expect(price.cacheReadMultiplier).toBeLessThan(1);
      expect(price.cacheWriteMultiplier).toBeGreaterThanOrEqual(1);
      expect(price.minimumCacheableTokens).toBeGreaterThanOrEqual(1024);
    }
  });
});

describe('leadingIdenticalTokens', () => {
  it('sums the tokens of leading parts equal to the previous call', () => {
    expect(leadingIdenticalTokens(['a', 'b', 'c'], ['a', 'b', 'x', 'c'], [5, 6, 7, 8])).toBe(11);
    expect(leadingIdenticalTokens([], ['a'], [5])).toBe(0);
    expect(leadingIdenticalTokens(['a', 'b'], ['a'], [5])).toBe(5);
  });
});
