import { describe, expect, it } from 'vitest';
import type { LedgerLine } from '../../src/gateway/index.ts';
import { proxySpend } from '../../src/node/cli/proxy-spend.ts';
import type { ModelPrice } from '../../src/tokens/price-table.ts';

/** $1 a token: every figure below is worked out by hand. */
const PRICE: ModelPrice = {
  model: 'hand-priced',
  provider: 'anthropic',
  inputPerMillion: 1_000_000,
  outputPerMillion: 0,
  cacheReadMultiplier: 0.1,
  cacheWriteMultiplier: 1.25,
  cacheWriteOneHourMultiplier: 2,
  minimumCacheableTokens: 100,
  cacheLifetimeSeconds: 300,
};

const line = (fields: Partial<LedgerLine>): LedgerLine => ({
  time: '2026-12-07T06:00:00.000Z',
  api: 'anthropic',
  verdict: 'folded',
  model: 'm',
  ...fields,
});

describe('proxySpend', () => {
  const lines = [
    // billed 10 + 990 × 1.25; raw: nothing cached yet, 1,000 written
    line({ rawTokens: 1000, inputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 990 }),
    // no usage (the upstream failed): in neither figure, and not the next call's cached prefix
    line({ rawTokens: 1100, status: 529 }),
    // billed 5 + 800 × 0.1 + 100 × 1.25; raw: the previous 1,000 read, 200 written
    line({ rawTokens: 1200, inputTokens: 5, cacheReadTokens: 800, cacheWriteTokens: 100 }),
    // under the minimum cacheable length: all fresh either way
    line({ rawTokens: 50, inputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 }),
    // no raw count (the fold failed, sent as received): the provider's figure stands in; 50 is too short to read
    line({ verdict: 'passthrough', inputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0 }),
  ];

  it("bills the provider's usage and prices the raw requests under the client's own caching", () => {
    const spend = proxySpend(lines, () => PRICE);
    expect(spend.pricedCalls).toBe(4);
    expect(spend.billed).toBeCloseTo(1247.5 + 210 + 50 + 300, 9);
    expect(spend.raw).toBeCloseTo(1250 + 350 + 50 + 375, 9);
    expect(spend.saved).toBeCloseTo(2025 - 1807.5, 9);
  });

  it('is unpriced when one call is: never a guess', () => {
    const spend = proxySpend(lines, (model) => (model === 'm' ? PRICE : null));
    expect(
      proxySpend([...lines, line({ model: 'unknown', rawTokens: 10, inputTokens: 10 })], (model) =>
        model === 'm' ? PRICE : null,
      ),
    ).toEqual({ pricedCalls: 5, billed: null, raw: null, saved: null });
    expect(spend.billed).not.toBeNull();
  });
});
