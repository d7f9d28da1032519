import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BudgetInputError,
  DEFAULT_CEILING_TOKENS,
  MINIMUM_PRESSURE_CEILING_TOKENS,
  resolveCeiling,
  resolveContextBudget,
} from '../../src/budget/index.ts';
import { thrownBy } from '../helpers/thrown.ts';

describe('resolveCeiling', () => {
  it('lets a valid header win over the flag and the model', () => {
    expect(resolveCeiling({ header: '24000', configured: 50_000, model: 'claude-opus-4-5' })).toEqual({
      tokens: 24_000,
      source: 'header',
      model: 'claude-opus-4-5',
      explanation: 'x-warpfold-ceiling',
    });
    expect(resolveCeiling({ header: 30_000 }).tokens).toBe(30_000);
    expect(resolveCeiling({ header: ' 8000 ' }).tokens).toBe(8_000);
  });

  it('takes the configured ceiling when no header is sent', () => {
    for (const header of [undefined, null]) {
      expect(resolveCeiling({ header, configured: 50_000, model: 'claude-opus-4-5' })).toEqual({
        tokens: 50_000,
        source: 'flag',
        model: 'claude-opus-4-5',
        explanation: '--ceiling',
      });
    }
  });

  it("takes the model's pressure ceiling from resolveContextBudget", () => {
    const choice = resolveCeiling({ model: 'claude-opus-4-5-20251101' });
    const budget = resolveContextBudget({ engine: 'claude', model: 'claude-opus-4-5-20251101' });
    expect(choice.tokens).toBe(budget.pressureCeilingTokens);
    expect(choice.tokens).toBe(155_125);
    expect(choice.source).toBe('model');
    expect(choice.model).toBe('claude-opus-4-5-20251101');
    expect(choice.explanation).toBe('claude-opus-4-5-20251101: 200,000-token window less the output reserve');
  });

  it("caps a large model's budget at the default", () => {
    const choice = resolveCeiling({ model: 'claude-opus-5-5' });
    expect(choice).toEqual({
      tokens: DEFAULT_CEILING_TOKENS,
      source: 'model',
      model: 'claude-opus-5-5',
      explanation: 'claude-opus-5-5: 1,000,000-token window, capped at the 200,000 default',
    });
  });

  it('applies the engine the caller names', () => {
    const codex = resolveCeiling({ model: 'gpt-5-codex', engine: 'codex' });
    expect(codex.tokens).toBe(resolveContextBudget({ engine: 'codex', model: 'gpt-5-codex' }).pressureCeilingTokens);
    expect(codex.tokens).toBeLessThanOrEqual(DEFAULT_CEILING_TOKENS);
  });

  it('falls back to the default without a model or for an unknown one', () => {
    expect(resolveCeiling({})).toEqual({
      tokens: DEFAULT_CEILING_TOKENS,
      source: 'default',
      explanation: 'no model known: the 200,000 default',
    });
    expect(resolveCeiling({ model: 'my-own-model' })).toEqual({
      tokens: DEFAULT_CEILING_TOKENS,
      source: 'default',
      model: 'my-own-model',
      explanation: 'my-own-model: window unknown, the 200,000 default',
    });
    expect(resolveCeiling({ model: '  ' }).source).toBe('default');
  });

  it('rejects a header that is not a count of at least the minimum, naming the header', () => {
    const below = MINIMUM_PRESSURE_CEILING_TOKENS - 1;
    for (const header of ['', 'abc', '-5', '12.5', '1e5', '0x10', String(below), below, 0, -1, 1.5, Number.NaN]) {
      const error = thrownBy(() => resolveCeiling({ header, configured: 50_000 }), BudgetInputError);
      expect(error.field).toBe('x-warpfold-ceiling');
      expect(error.code).toBe('invalid-field');
    }
  });

  it('rejects a configured ceiling that is not a count', () => {
    const error = thrownBy(() => resolveCeiling({ configured: 10 }), BudgetInputError);
    expect(error.field).toBe('ceiling');
  });

  it('always returns a positive integer with a source and an explanation', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: MINIMUM_PRESSURE_CEILING_TOKENS, max: 5_000_000 }), { nil: undefined }),
        fc.option(fc.integer({ min: MINIMUM_PRESSURE_CEILING_TOKENS, max: 5_000_000 }), { nil: undefined }),
        fc.option(fc.constantFrom('claude-sonnet-4-5', 'gpt-5', 'gemini-2.5-pro', 'unknown-x', 'gpt-4'), {
          nil: undefined,
        }),
        (header, configured, model) => {
          const choice = resolveCeiling({ header, configured, model });
          expect(Number.isSafeInteger(choice.tokens)).toBe(true);
          expect(choice.tokens).toBeGreaterThanOrEqual(MINIMUM_PRESSURE_CEILING_TOKENS);
          expect(choice.explanation.length).toBeGreaterThan(0);
          if (header === undefined && configured === undefined) {
            expect(choice.tokens).toBeLessThanOrEqual(DEFAULT_CEILING_TOKENS);
          }
        },
      ),
    );
  });
});
