/**
 * Options are checked field by field: a misspelt or misplaced option, a fold setting or line
 * weight the config does not have, and a value out of its range are each a FoldOptionsError
 * naming the field, so a host's intent is never ignored without a word (a top-level
 * `closetFraction` used to be dropped, and a string share passed). Every built-in config passes.
 */
import { describe, expect, it } from 'vitest';
import { ALWAYS_ON_FOLD_CONFIG, foldContext } from '../../src/fold/index.ts';
import {
  DEFAULT_FOLD_CONFIG,
  FoldOptionsError,
  FoldSession,
  type FoldConfig,
  type FoldPrepareOptions,
  type FoldSessionOptions,
  type ProviderMessage,
} from '../../src/index.ts';
import { thrownBy } from '../helpers/thrown.ts';

const history: ProviderMessage[] = [
  { role: 'user', content: 'first question' },
  { role: 'assistant', content: 'first answer' },
  { role: 'user', content: 'second question' },
  { role: 'assistant', content: 'second answer' },
];

const optionsError = (run: () => unknown) => thrownBy(run, FoldOptionsError);

const session = (options: Record<string, unknown>) => () => new FoldSession(options as FoldSessionOptions);

describe('a field an options object does not have', () => {
  it.each<[string, () => unknown, string, RegExp]>([
    [
      'a fold setting at the top level',
      session({ pressureCeiling: 8_000, closetFraction: 0.15 }),
      'closetFraction',
      /FoldSession has no option "closetFraction"; fold settings go under foldConfig, as \{ foldConfig: \{ closetFraction: … \} \}/,
    ],
    [
      'a misspelt option',
      session({ pressureCeilng: 8_000 }),
      'pressureCeilng',
      /FoldSession has no option "pressureCeilng"; the options are pressureCeiling, budget, /,
    ],
    [
      'a misspelt fold setting',
      session({ foldConfig: { closetFraktion: 0.15 } }),
      'foldConfig.closetFraktion',
      /foldConfig has no field "closetFraktion"; its fields are safetyFraction, /,
    ],
    [
      'a misspelt freeze setting',
      session({ freeze: { ttl: 1_000 } }),
      'freeze.ttl',
      /freeze has no field "ttl"; its fields are enabled, ttlMs, maxTailChars, coldRefoldFraction/,
    ],
    ['a misspelt recall setting', session({ recall: { cards: 2 } }), 'recall.cards', /recall has no field "cards"/],
    [
      'a misspelt prepare option',
      () => new FoldSession().prepare(history, { measuredTokens: 10 } as unknown as FoldPrepareOptions),
      'measuredTokens',
      /prepare has no option "measuredTokens"; the options are measuredInputTokens, hardEpoch, hardEpochSeed, taskRail/,
    ],
  ])('%s', (_, run, option, problem) => {
    const error = optionsError(run);
    expect(error.option).toBe(option);
    expect(error.message).toMatch(problem);
  });
});

describe('a value out of its range', () => {
  it.each<[string, () => unknown, string, RegExp]>([
    [
      'a share given as a string',
      session({ foldConfig: { closetFraction: '0.15' } }),
      'foldConfig.closetFraction',
      /foldConfig.closetFraction must be a number from 0 to 1, got "0.15"/,
    ],
    [
      'a negative share',
      session({ foldConfig: { headFraction: -0.5 } }),
      'foldConfig.headFraction',
      /must be a number from 0 to 1, got -0.5/,
    ],
    ['a share above 1', session({ foldConfig: { bandsFraction: 1.5 } }), 'foldConfig.bandsFraction', /got 1.5/],
    [
      'an empty working set',
      session({ foldConfig: { workingSetShare: 0 } }),
      'foldConfig.workingSetShare',
      /must be a number above 0 and at most 1, got 0/,
    ],
    [
      'no steps in the working set',
      session({ foldConfig: { outputsPerWorkingSet: 0 } }),
      'foldConfig.outputsPerWorkingSet',
      /must be a finite number above 0, got 0/,
    ],
    [
      'alwaysOn as a number',
      session({ foldConfig: { alwaysOn: 1 } }),
      'foldConfig.alwaysOn',
      /must be a boolean, got 1/,
    ],
    [
      'a freeze share above 1',
      session({ freeze: { coldRefoldFraction: 2 } }),
      'freeze.coldRefoldFraction',
      /must be a number from 0 to 1, got 2/,
    ],
    ['a negative freeze lifetime', session({ freeze: { ttlMs: -1 } }), 'freeze.ttlMs', /must be a number ≥ 0, got -1/],
    [
      'a negative recall card count',
      session({ recall: { maxCards: -1 } }),
      'recall.maxCards',
      /recall.maxCards must be a finite number ≥ 0, got -1/,
    ],
    [
      'a recall counter that is not a function',
      session({ recall: { countTokens: 5 } }),
      'recall.countTokens',
      /must be a function, got 5/,
    ],
    [
      'foldContext with a negative turn count',
      () => foldContext(history, { turnsToFold: -1 }),
      'turnsToFold',
      /turnsToFold must be a whole number ≥ 0, got -1/,
    ],
    [
      'foldContext with a config missing a setting',
      () => foldContext(history, { config: { ...DEFAULT_FOLD_CONFIG, bandRatio: undefined } as unknown as FoldConfig }),
      'config.bandRatio',
      /config.bandRatio is missing/,
    ],
  ])('%s', (_, run, option, problem) => {
    const error = optionsError(run);
    expect(error.option).toBe(option);
    expect(error.message).toMatch(problem);
    expect(error.message).toMatch(/^options: /);
  });
});

describe('what the library ships passes its own checks', () => {
  const configs: Array<[string, FoldConfig]> = [
    ['DEFAULT_FOLD_CONFIG', DEFAULT_FOLD_CONFIG],
    ['ALWAYS_ON_FOLD_CONFIG', ALWAYS_ON_FOLD_CONFIG],
  ];

  it.each(configs)('%s as a session override and as a whole foldContext config', (_, config) => {
    const folded = new FoldSession({ pressureCeiling: 8_000, foldConfig: config }).prepare(history);
    expect(folded.messages.length).toBeGreaterThan(0);
    expect(foldContext(history, { config, turnsToFold: 1 }).turnsFolded).toBeLessThanOrEqual(1);
  });

  it('settings given as undefined are absent, as a saved options object may have them', () => {
    const folded = new FoldSession({
      pressureCeiling: 8_000,
      foldConfig: { closetFraction: undefined, alwaysOn: undefined },
    }).prepare(history);
    expect(folded.messages.length).toBeGreaterThan(0);
  });
});
