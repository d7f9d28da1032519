/**
 * The inspector's replay (demo/src/fold/replay.ts, what its worker runs) against the benchmark's
 * own replay of the same session: the same prompt tokens, cache reads, cost and retention at need
 * for warpfold and for each baseline, so the charts show the benchmark's numbers call by call.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaySession } from '../../src/baselines/session-replay.ts';
import { clearStrategy } from '../../src/baselines/clear.ts';
import { maskStrategy } from '../../src/baselines/mask.ts';
import { rawStrategy } from '../../src/baselines/raw.ts';
import { truncateStrategy } from '../../src/baselines/truncate.ts';
import type { BaselineMessage, StrategyDefinition } from '../../src/baselines/types.ts';
import { warpfoldStrategy } from '../../src/baselines/fold-session-strategy.ts';
import { DEFAULT_SETTINGS, type StrategyName } from '../../demo/src/fold/protocol.ts';
import { replayHistory } from '../../demo/src/fold/replay.ts';
import type { ProviderMessage } from '../../src/index.ts';

const SAMPLE = join(import.meta.dirname, '../../demo/public/samples/pydicom-901.json');
const messages = (JSON.parse(readFileSync(SAMPLE, 'utf8')) as { messages: ProviderMessage[] }).messages;

describe('the inspector replay of the bundled sample', async () => {
  const replay = await replayHistory(messages, DEFAULT_SETTINGS);
  const definitions: Record<StrategyName, StrategyDefinition> = {
    warpfold: warpfoldStrategy(),
    raw: rawStrategy,
    truncate: truncateStrategy,
    mask: maskStrategy,
    clear: clearStrategy,
  };

  it.each(Object.keys(definitions) as StrategyName[])(
    '%s: totals equal the benchmark replay at the same ceiling',
    (name) => {
      const bench = replaySession(messages as BaselineMessage[], definitions[name], {
        ceiling: DEFAULT_SETTINGS.ceiling,
      });
      const series = replay!.strategies.find((entry) => entry.name === name)!;
      const calls = series.tokens.length;
      expect(calls).toBe(bench.calls);
      expect(series.tokens.reduce((sum, tokens) => sum + tokens, 0)).toBe(bench.tokens);
      expect(Math.max(...series.tokens)).toBe(bench.maxTokens);
      expect(series.cumulativeCost[calls - 1]).toBeCloseTo(bench.cost, 10);
      expect(series.cacheHitPercent[calls - 1]).toBeCloseTo((100 * bench.cachedTokens) / bench.tokens, 10);
      expect(series.retentionPercent[calls - 1]).toBeCloseTo((100 * bench.needlesKept) / bench.needles, 10);
    },
  );

  it('each call summary agrees with its strategy series and sits under the ceiling', () => {
    const series = replay!.strategies.find((entry) => entry.name === 'warpfold')!;
    replay!.calls.forEach((call, index) => {
      expect(call.viewTokens).toBe(series.tokens[index]);
      expect(call.viewTokens).toBeLessThanOrEqual(DEFAULT_SETTINGS.ceiling);
      expect(call.sharedPrefixTokens).toBeLessThanOrEqual(call.viewTokens);
      if (call.cacheHot) expect(call.cachedTokens).toBe(call.sharedPrefixTokens);
    });
    expect(replay!.calls.some((call) => call.epochReason)).toBe(true);
    expect(replay!.session.receipts().length).toBeGreaterThan(0);
  });
});
