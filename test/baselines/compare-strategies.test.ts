// The public baselines entry: one call compares strategies on a session under a ceiling, a price and
// a clock, with the same figures as replaying each strategy on its own.
import { describe, expect, it } from 'vitest';
import {
  bandedStrategy,
  clearStrategy,
  compareStrategies,
  rawStrategy,
  replaySession,
  summaryRow,
  truncateStrategy,
  warpfoldStrategy,
  type BaselineMessage,
} from '../../src/baselines/index.ts';
import { countTokens, renderMessage } from '../../src/tokens/index.ts';
import { readFixture } from '../helpers/fixtures.ts';
import { transcriptFor } from '../helpers/workloads/dialect-transcript.ts';
import { OUTAGE_SCRIPT } from '../helpers/workloads/outage-script.ts';

const messages = readFixture<BaselineMessage>('msa-ds-chat-dev-pydicom__pydicom-901').messages;
const CEILING = 8_000;

describe('compareStrategies', () => {
  const strategies = [rawStrategy, truncateStrategy, clearStrategy, warpfoldStrategy()];
  const figures = compareStrategies(messages, strategies, { ceiling: CEILING });

  it('reports each strategy with the figures of its own replay', () => {
    expect(figures.map((entry) => entry.name)).toEqual(['raw', 'truncate', 'clear', 'warpfold']);
    const rawCost = figures[0].counters.cost;
    for (const [index, entry] of figures.entries()) {
      const alone = replaySession(messages, strategies[index], { ceiling: CEILING });
      expect({ ...entry.counters, prepareMilliseconds: 0 }).toEqual({ ...alone, prepareMilliseconds: 0 });
      expect({ ...entry.summary, prepareMilliseconds: 0 }).toEqual({
        ...summaryRow(alone, rawCost),
        prepareMilliseconds: 0,
      });
    }
    expect(figures[0].summary.costVsRaw).toBe(1);
    expect(figures[0].summary.retentionPercent).toBe(100);
    expect(figures[3].summary.overCeilingCalls).toBe(0);
    expect(figures[3].summary.cost).toBeLessThan(figures[0].summary.cost);
  });

  it('bills at the price asked for, and reads no cache when calls are further apart than its lifetime', () => {
    const [sonnet] = compareStrategies(messages, [rawStrategy], { ceiling: CEILING, price: 'sonnet-class' });
    const [opus] = compareStrategies(messages, [rawStrategy], { ceiling: CEILING, price: 'claude-opus-4-1' });
    expect(opus.counters.cost).toBeCloseTo(sonnet.counters.cost * 5, 10);
    const [cold] = compareStrategies(messages, [rawStrategy], { ceiling: CEILING, millisecondsBetweenCalls: 301_000 });
    expect(sonnet.summary.cachePercent).toBeGreaterThan(50);
    expect(cold.counters.cachedTokens).toBe(0);
    expect(cold.counters.cost).toBeGreaterThan(sonnet.counters.cost);
  });

  it('calls the model before every assistant turn in each dialect, Gemini `model` turns included', () => {
    const calls = (['openai', 'anthropic', 'gemini'] as const).map(
      (dialect) =>
        compareStrategies(transcriptFor(OUTAGE_SCRIPT, dialect).messages, [rawStrategy], { ceiling: CEILING })[0]
          .counters.calls,
    );
    expect(calls[0]).toBeGreaterThan(10);
    expect(calls).toEqual([calls[0], calls[0], calls[0]]);
  });

  it('leaves costVsRaw empty without a raw strategy', () => {
    const [truncate] = compareStrategies(messages, [truncateStrategy], { ceiling: CEILING });
    expect(truncate.summary.costVsRaw).toBeNull();
  });
});

describe('the banded fold', () => {
  const render = (view: readonly BaselineMessage[]) => view.map(renderMessage);
  const isBand = (rendered: string) => /^<user>\n\[Folded messages \d+-\d+\]/.test(rendered);

  it.each([16_000, 8_000])(
    'stays under %i, keeps older bands byte-identical until a merge, and merges past 45%% of it',
    (ceiling) => {
      const banded = bandedStrategy.create({ ceiling, countTokens, now: () => 0 });
      let previousBands: string[] = [];
      let sealed = 0;
      let merged = 0;
      for (let index = 1; index < messages.length; index++) {
        if (messages[index].role !== 'assistant') continue;
        const view = banded.prepare(messages.slice(0, index), {}).messages;
        const rendered = render(view);
        expect(rendered.reduce((sum, text) => sum + countTokens(text), 0)).toBeLessThanOrEqual(ceiling);
        const bands = rendered.filter(isBand);
        const bandTokens = bands.reduce((sum, text) => sum + countTokens(text), 0);
        expect(bandTokens).toBeLessThanOrEqual(0.45 * ceiling);
        const unchanged = previousBands.every((band, at) => bands[at] === band);
        if (unchanged && bands.length > previousBands.length) sealed++;
        else if (!unchanged) {
          // a merge: one band over everything folded so far
          merged++;
          expect(bands).toHaveLength(1);
          expect(bands[0]).toMatch(/^<user>\n\[Folded messages 2-/);
        }
        previousBands = bands;
      }
      expect(sealed).toBeGreaterThan(0);
      if (ceiling === 8_000) expect(merged).toBeGreaterThan(0);
    },
  );

  it('keeps the agent words, its commands and the lines of identifiers it folds', () => {
    const banded = bandedStrategy.create({ ceiling: 8_000, countTokens, now: () => 0 });
    const index = messages.map((message) => message.role).lastIndexOf('assistant');
    const band = render(banded.prepare(messages.slice(0, index), {}).messages).find(isBand)!;
    expect(band).toContain('\n$ ');
    expect(band).toContain('\nIdentifiers in context:\n');
  });
});
