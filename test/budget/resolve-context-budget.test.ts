import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  BudgetInputError,
  MINIMUM_CONTEXT_WINDOW_TOKENS,
  resolveContextBudget,
  type ContextBudget,
} from '../../src/budget/index.ts';
import { thrownBy } from '../helpers/thrown.ts';

const countFields = [
  'contextWindowTokens',
  'outputReserveTokens',
  'safetyMarginTokens',
  'messageCeilingTokens',
  'pressureCeilingTokens',
  'prefixSaturationTokens',
  'bandTokens',
  'tailEpochCapTokens',
] as const;

function expectSaneBudget(budget: ContextBudget): void {
  for (const field of countFields) {
    expect(Number.isSafeInteger(budget[field]), field).toBe(true);
    expect(budget[field], field).toBeGreaterThan(0);
  }
  expect(budget.messageCeilingTokens).toBeLessThanOrEqual(budget.contextWindowTokens - budget.outputReserveTokens);
  expect(budget.pressureCeilingTokens).toBeLessThan(budget.messageCeilingTokens);
  expect(budget.bandTokens).toBeLessThan(budget.pressureCeilingTokens);
  expect(budget.prefixSaturationTokens).toBeGreaterThan(budget.bandTokens);
  expect(budget.prefixSaturationTokens).toBeLessThan(budget.pressureCeilingTokens);
  expect(budget.tailEpochCapTokens).toBeLessThanOrEqual(budget.pressureCeilingTokens - budget.bandTokens);
}

const windowTokens = fc.integer({ min: 8_000, max: 2_000_000 });
const optionalBand = fc.option(fc.integer({ min: 1, max: 3_000_000 }), { nil: undefined });

function budgetFor(contextWindowTokens: number, targetBandTokens?: number): ContextBudget {
  return resolveContextBudget({ engine: 'my-provider', model: 'my-model', contextWindowTokens, targetBandTokens });
}

describe('resolveContextBudget: invariants over every window', () => {
  it('keeps positive integers in order: band < prefix saturation < pressure < message ceiling <= window - output', () => {
    fc.assert(
      fc.property(windowTokens, optionalBand, (window, band) => {
        expectSaneBudget(budgetFor(window, band));
      }),
      { numRuns: 500 },
    );
  });

  it('is monotone non-decreasing in the window', () => {
    fc.assert(
      fc.property(windowTokens, windowTokens, optionalBand, (first, second, band) => {
        const smaller = budgetFor(Math.min(first, second), band);
        const larger = budgetFor(Math.max(first, second), band);
        for (const field of countFields) {
          expect(larger[field], field).toBeGreaterThanOrEqual(smaller[field]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is monotone across neighbouring windows (no off-by-one dips from rounding)', () => {
    fc.assert(
      fc.property(windowTokens, (window) => {
        const here = budgetFor(window);
        const next = budgetFor(window + 1);
        for (const field of countFields) expect(next[field], field).toBeGreaterThanOrEqual(here[field]);
      }),
      { numRuns: 500 },
    );
  });

  it('never dips between neighbouring windows where rounding or clamps switch', () => {
    // Reserves are fractions of the window (1/16, 1/40): dips would hide at multiples of 80,
    // and where the minimum and maximum clamps take over.
    const windows = new Set<number>();
    for (let window = 8_000; window <= 20_000; window += 1) windows.add(window);
    for (let window = 1_020_000; window <= 1_030_000; window += 1) windows.add(window);
    for (let window = 1_595_000; window <= 1_605_000; window += 1) windows.add(window);
    for (let window = 8_000; window <= 2_000_000; window += 80) windows.add(window);
    for (const window of windows) {
      const here = budgetFor(window);
      const next = budgetFor(window + 1);
      for (const field of countFields) {
        if (next[field] < here[field])
          expect.fail(`${field} dips from ${here[field]} to ${next[field]} at window ${window}`);
      }
    }
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(windowTokens, optionalBand, (window, band) => {
        expect(budgetFor(window, band)).toEqual(budgetFor(window, band));
      }),
    );
  });

  it('holds the invariants with an explicit pressure ceiling', () => {
    fc.assert(
      fc.property(windowTokens, fc.integer({ min: 1_000, max: 3_000_000 }), (window, ceiling) => {
        const budget = resolveContextBudget({
          engine: 'p',
          model: 'm',
          contextWindowTokens: window,
          pressureCeilingTokens: ceiling,
        });
        expectSaneBudget(budget);
        expect(budget.pressureCeilingTokens).toBe(Math.min(ceiling, budget.messageCeilingTokens - 1));
      }),
    );
  });
});

describe('resolveContextBudget: real models', () => {
  it('claude-sonnet-4 on claude: 200K, survival profile', () => {
    const budget = resolveContextBudget({ engine: 'claude', model: 'claude-sonnet-4' });
    expect(budget).toMatchObject({
      engine: 'claude',
      model: 'claude-sonnet-4',
      contextWindowTokens: 200_000,
      messageCeilingTokens: 182_500,
      pressureCeilingTokens: 155_125,
      bandTokens: 46_537,
      compressionProfile: 'survival',
      evictionPolicy: 'hard-epoch-only',
      source: 'model-table',
    });
    expectSaneBudget(budget);
  });

  it('claude-sonnet-4-6 and the [1m] variant of sonnet 4.5: 1M, cache-economic', () => {
    for (const model of ['claude-sonnet-4-6', 'claude-sonnet-4-5[1m]', 'claude-sonnet-4-5-20250929-1m']) {
      const budget = resolveContextBudget({ engine: 'claude', model });
      expect(budget.contextWindowTokens, model).toBe(1_000_000);
      expect(budget.compressionProfile, model).toBe('cache-economic');
      expect(budget.evictionPolicy, model).toBe('hard-epoch-on-prefix-saturation');
      expectSaneBudget(budget);
    }
    expect(resolveContextBudget({ engine: 'claude', model: 'claude-sonnet-4-5' }).contextWindowTokens).toBe(200_000);
  });

  it('gpt-4 (8K) gets a usable ceiling, not 1', () => {
    const budget = resolveContextBudget({ engine: 'openai', model: 'gpt-4' });
    expect(budget.contextWindowTokens).toBe(8_192);
    expect(budget.messageCeilingTokens).toBe(6_912);
    expect(budget.pressureCeilingTokens).toBeGreaterThan(5_000);
    expect(budget.bandTokens).toBeGreaterThan(1_000);
    expectSaneBudget(budget);
  });

  it('gpt-5 respects its 272K input cap inside the 400K window', () => {
    const budget = resolveContextBudget({ engine: 'openai', model: 'gpt-5' });
    expect(budget.contextWindowTokens).toBe(400_000);
    expect(budget.inputLimitTokens).toBe(272_000);
    expect(budget.messageCeilingTokens).toBeLessThanOrEqual(272_000);
    expectSaneBudget(budget);
  });

  it('Codex CLI caps gpt-5.5 at 272K; the Codex API path uses the 1.05M window', () => {
    const cli = resolveContextBudget({ engine: 'codex', model: 'gpt-5.5' });
    expect(cli.contextWindowTokens).toBe(272_000);
    expect(cli.source).toBe('engine-table');
    const api = resolveContextBudget({ engine: 'codex-api', model: 'gpt-5.5' });
    expect(api.contextWindowTokens).toBe(1_050_000);
    expect(api.messageCeilingTokens).toBeLessThanOrEqual(922_000);
    expect(api.pressureCeilingTokens).toBeGreaterThan(cli.pressureCeilingTokens);
  });

  it('gemini-1.5-pro (2M) scales the pressure ceiling beyond the 200K knee', () => {
    const gemini = resolveContextBudget({ engine: 'gemini', model: 'models/gemini-1.5-pro-002' });
    expect(gemini.contextWindowTokens).toBe(2_097_152);
    expect(gemini.compressionProfile).toBe('wide-cache-economic');
    const sonnet = resolveContextBudget({ engine: 'claude', model: 'claude-sonnet-4' });
    expect(gemini.pressureCeilingTokens).toBeGreaterThan(2 * sonnet.pressureCeilingTokens);
    expectSaneBudget(gemini);
  });

  it('gpt-4o (128K) and MiniMax-M2 resolve through the table', () => {
    expect(resolveContextBudget({ engine: 'openai', model: 'gpt-4o-2024-08-06' }).contextWindowTokens).toBe(128_000);
    expect(resolveContextBudget({ engine: 'minimax', model: 'MiniMax-M2.1' }).contextWindowTokens).toBe(204_800);
  });

  it('an explicit window wins over the table', () => {
    const budget = resolveContextBudget({ engine: 'claude', model: 'claude-sonnet-4', contextWindowTokens: 64_000 });
    expect(budget.contextWindowTokens).toBe(64_000);
    expect(budget.source).toBe('explicit');
    expect(budget.inputLimitTokens).toBeNull();
  });

  it('an unknown model with an explicit window and band opts in', () => {
    const budget = resolveContextBudget({
      engine: 'my-provider',
      model: 'new-million-context-model',
      contextWindowTokens: 1_000_000,
      targetBandTokens: 150_000,
    });
    expect(budget.bandTokens).toBe(150_000);
    expect(budget.source).toBe('explicit');
    expectSaneBudget(budget);
  });

  it('clamps a band above the pressure ceiling to 80% of it', () => {
    const budget = resolveContextBudget({ engine: 'claude', model: 'claude-sonnet-4', targetBandTokens: 10_000_000 });
    expect(budget.bandTokens).toBe(Math.floor(budget.pressureCeilingTokens * 0.8));
  });
});

describe('resolveContextBudget: input errors', () => {
  const errorOf = (run: () => unknown) => thrownBy(run, BudgetInputError);

  it('names contextWindowTokens when the model is unknown', () => {
    const error = errorOf(() => resolveContextBudget({ engine: 'my-provider', model: 'mystery-7b' }));
    expect(error.code).toBe('unknown-model');
    expect(error.field).toBe('contextWindowTokens');
    expect(error.message).toContain('mystery-7b');
    expect(error.name).toBe('BudgetInputError');
  });

  it('names a missing engine or model', () => {
    expect(errorOf(() => resolveContextBudget({ model: 'gpt-4o' } as never)).field).toBe('engine');
    const missingModel = errorOf(() => resolveContextBudget({ engine: 'openai' } as never));
    expect([missingModel.code, missingModel.field]).toEqual(['missing-field', 'model']);
    expect(errorOf(() => resolveContextBudget({ engine: 'openai', model: '  ' })).code).toBe('invalid-field');
    expect(errorOf(() => resolveContextBudget(undefined as never)).field).toBe('input');
  });

  it('rejects windows that are not integers or are too small', () => {
    for (const contextWindowTokens of [0, -5, 1.5, Number.NaN, MINIMUM_CONTEXT_WINDOW_TOKENS - 1, '200000']) {
      const error = errorOf(() =>
        resolveContextBudget({ engine: 'p', model: 'm', contextWindowTokens: contextWindowTokens as number }),
      );
      expect(error.field).toBe('contextWindowTokens');
      expect(error.code).toBe('invalid-field');
    }
  });

  it('rejects a bad band or pressure ceiling', () => {
    expect(
      errorOf(() => resolveContextBudget({ engine: 'claude', model: 'claude-sonnet-4', targetBandTokens: 0 })).field,
    ).toBe('targetBandTokens');
    expect(
      errorOf(() => resolveContextBudget({ engine: 'claude', model: 'claude-sonnet-4', pressureCeilingTokens: 10 }))
        .field,
    ).toBe('pressureCeilingTokens');
  });
});
