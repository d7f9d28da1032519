/**
 * Finding 3 of issue 14: every malformed shape gets a typed error naming the message index and
 * the field, never a RangeError or TypeError from deep inside: values nested past
 * MAX_VALUE_DEPTH, cyclic values (also in fields warpfold does not read, which used to pass
 * prepare and break snapshot()), bad options (FoldOptionsError naming the option), and a
 * countTokens that returns NaN, a negative or a string. A rejected call leaves the session usable.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  FoldInputError,
  FoldOptionsError,
  FoldSession,
  type FoldPrepareOptions,
  type FoldSessionOptions,
  type ProviderMessage,
} from '../../src/index.ts';
import { MAX_VALUE_DEPTH } from '../../src/fold/index.ts';
import { startTaskRail } from '../../src/task-rail/index.ts';
import { thrownBy } from '../helpers/thrown.ts';

const nested = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { leaf: 'x' };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
};
const cyclic = (): Record<string, unknown> => {
  const value: Record<string, unknown> = { name: 'loop', inner: { list: [] as unknown[] } };
  ((value.inner as Record<string, unknown>).list as unknown[]).push(value);
  return value;
};

const openAi = (args: string): ProviderMessage[] => [
  { role: 'user', content: 'go' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: args } }],
  },
];
const anthropic = (input: unknown): ProviderMessage[] => [
  { role: 'user', content: 'go' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input }] },
];
const geminiCall = (args: unknown): ProviderMessage[] => [
  { role: 'user', parts: [{ text: 'go' }] },
  { role: 'model', parts: [{ text: 'ok' }, { functionCall: { name: 'bash', args } }] },
];
const geminiResponse = (response: unknown): ProviderMessage[] => [
  ...geminiCall({ command: 'ls' }),
  { role: 'user', parts: [{ functionResponse: { name: 'bash', response } }] },
];

describe('deep and cyclic values → FoldInputError naming the message and the field', () => {
  const deep = nested(10_000);
  it.each<[string, ProviderMessage[], number, RegExp]>([
    [
      'OpenAI arguments 10,000 deep',
      openAi(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`),
      1,
      /tool_calls\[0\]\.function\.arguments.* nested more than 512 levels/,
    ],
    ['Anthropic input 10,000 deep', anthropic(deep), 1, /content\[0\]\.input\.a.* nested more than 512 levels/],
    ['Gemini args 10,000 deep', geminiCall(deep), 1, /parts\[1\]\.functionCall\.args.* nested more than 512 levels/],
    [
      'a Gemini functionResponse.response 10,000 deep',
      geminiResponse(deep),
      2,
      /parts\[0\]\.functionResponse\.response.* nested more than 512 levels/,
    ],
    ['cyclic Anthropic input', anthropic(cyclic()), 1, /content\[0\]\.input\.inner\.list\[0\] refers back to itself/],
    [
      'cyclic Gemini args',
      geminiCall(cyclic()),
      1,
      /parts\[1\]\.functionCall\.args\.inner\.list\[0\] refers back to itself/,
    ],
    [
      'a cyclic Gemini response',
      geminiResponse(cyclic()),
      2,
      /parts\[0\]\.functionResponse\.response\.inner.* refers back to itself/,
    ],
    [
      'a cyclic extra field',
      [{ role: 'user', content: 'hi', metadata: cyclic() }],
      0,
      /metadata\.inner\.list\[0\] refers back to itself/,
    ],
    [
      'a deep extra field',
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'ok', trace: nested(600) },
      ],
      1,
      /trace\.a.* nested more than 512 levels/,
    ],
  ])('%s', (_, history, index, problem) => {
    const session = new FoldSession({ pressureCeiling: 4_000, countTokens, now: () => 0 });
    const error = thrownBy(() => session.prepare(history));
    expect(error).toBeInstanceOf(FoldInputError);
    expect((error as FoldInputError).messageIndex).toBe(index);
    expect((error as FoldInputError).problem).toMatch(problem);
    expect(error.message).toMatch(new RegExp(`^message ${index}: `));
    // nothing half-done: the session snapshots, restores and goes on
    const restored = new FoldSession({
      pressureCeiling: 4_000,
      countTokens,
      now: () => 0,
      restoredState: session.snapshot(),
    });
    expect(restored.prepare([{ role: 'user', content: 'hi' }]).messages).toHaveLength(1);
  });

  it(`nesting up to MAX_VALUE_DEPTH (${MAX_VALUE_DEPTH}) is accepted, and a value shared in two places is not a cycle`, () => {
    const shared = { path: 'src/app.py' };
    const session = new FoldSession({ pressureCeiling: 4_000, countTokens, now: () => 0 });
    expect(() =>
      session.prepare(anthropic({ first: shared, second: shared, deep: nested(MAX_VALUE_DEPTH - 6) })),
    ).not.toThrow();
  });

  it('a rebuilt message that turns cyclic is named when it is compared, not only when read', () => {
    const session = new FoldSession({ pressureCeiling: 4_000, countTokens, now: () => 0 });
    const history: ProviderMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'ok' },
    ];
    session.prepare(history);
    const error = thrownBy(() => session.prepare([history[0], { role: 'assistant', content: 'ok', extra: cyclic() }]));
    expect(error).toBeInstanceOf(FoldInputError);
    expect((error as FoldInputError).messageIndex).toBe(1);
    expect(error.message).toMatch(/extra\.inner\.list\[0\] refers back to itself/);
  });
});

describe('bad options → FoldOptionsError naming the option', () => {
  const history: ProviderMessage[] = [{ role: 'user', content: 'hi' }];

  it.each<[string, () => unknown, string, RegExp]>([
    [
      'prepare(history, null)',
      () => new FoldSession().prepare(history, null as unknown as FoldPrepareOptions),
      '(options)',
      /prepare options must be an object or left out, got null/,
    ],
    [
      'prepare(history, 7)',
      () => new FoldSession().prepare(history, 7 as unknown as FoldPrepareOptions),
      '(options)',
      /got 7/,
    ],
    [
      'new FoldSession(null)',
      () => new FoldSession(null as unknown as FoldSessionOptions),
      '(options)',
      /FoldSession options must be an object or left out, got null/,
    ],
    [
      'hardEpochSeed: 42',
      () => new FoldSession().prepare(history, { hardEpoch: true, hardEpochSeed: 42 as unknown as string }),
      'hardEpochSeed',
      /hardEpochSeed must be a string, got 42/,
    ],
    [
      'hardEpoch: "yes"',
      () => new FoldSession().prepare(history, { hardEpoch: 'yes' as unknown as boolean }),
      'hardEpoch',
      /hardEpoch must be a boolean/,
    ],
    [
      "taskRail: { steps: 'x' }",
      () => new FoldSession().prepare(history, { hardEpoch: true, taskRail: { steps: 'x' } as never }),
      'taskRail.id',
      /taskRail.id is missing/,
    ],
    [
      "taskRail with steps: 'x'",
      () =>
        new FoldSession().prepare(history, {
          hardEpoch: true,
          taskRail: {
            id: 'r',
            title: 'Rail',
            locked: false,
            revision: 0,
            nextStepNumber: 1,
            createdAt: 0,
            updatedAt: 0,
            steps: 'x',
          } as never,
        }),
      'taskRail.steps',
      /taskRail.steps must be an array, got "x"/,
    ],
    [
      'taskRail: "rail"',
      () => new FoldSession().prepare(history, { taskRail: 'rail' as never }),
      'taskRail',
      /taskRail must be a task rail object/,
    ],
    [
      'countTokens: 5',
      () => new FoldSession({ countTokens: 5 as never }),
      'countTokens',
      /countTokens must be a function/,
    ],
    ['now: Date', () => new FoldSession({ now: 12 as never }), 'now', /now must be a function/],
    [
      'pressureCeiling: "8000"',
      () => new FoldSession({ pressureCeiling: '8000' as never }),
      'pressureCeiling',
      /pressureCeiling must be false or a number/,
    ],
    [
      'measuredInputTokens: NaN',
      () => new FoldSession().prepare(history, { measuredInputTokens: Number.NaN }),
      'measuredInputTokens',
      /measuredInputTokens must be a non-negative number/,
    ],
  ])('%s', (_, run, option, problem) => {
    const error = thrownBy(run);
    expect(error).toBeInstanceOf(FoldOptionsError);
    expect(error).toBeInstanceOf(FoldInputError);
    expect(error.name).toBe('FoldOptionsError');
    expect((error as FoldOptionsError).option).toBe(option);
    expect(error.message).toMatch(problem);
    expect(error.message).toMatch(/^options: /);
  });

  it('a valid task rail goes through and is rendered into the rebirth seed', () => {
    const started = startTaskRail({
      id: 'release',
      title: 'Ship the release',
      steps: [{ title: 'Tag v1.2.0' }],
      now: 0,
    });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const outcome = new FoldSession({ now: () => 0 }).prepare(history, { hardEpoch: true, taskRail: started.rail });
    expect(JSON.stringify(outcome.messages)).toContain('Tag v1.2.0');
  });
});

describe('a countTokens that does not return a count', () => {
  it.each<[string, unknown]>([
    ['NaN', Number.NaN],
    ['-5', -5],
    ['"5"', '5'],
    ['undefined', undefined],
  ])('returning %s → FoldOptionsError naming countTokens and the message; the snapshot still restores', (_, value) => {
    let poisoned = false;
    const counter = (text: string) => (poisoned && text.includes('poison') ? (value as number) : countTokens(text));
    const session = new FoldSession({ pressureCeiling: 4_000, countTokens: counter, now: () => 0 });
    const history: ProviderMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'ok' },
    ];
    session.prepare(history);
    poisoned = true;
    const error = thrownBy(() => session.prepare([...history, { role: 'user', content: 'poison pill' }]));
    expect(error).toBeInstanceOf(FoldOptionsError);
    expect((error as FoldOptionsError).option).toBe('countTokens');
    expect(error.message).toMatch(
      /countTokens must return a non-negative finite number of tokens; it returned .* for message 2/,
    );
    const restored = new FoldSession({
      pressureCeiling: 4_000,
      countTokens,
      now: () => 0,
      restoredState: session.snapshot(),
    });
    expect(restored.prepare(history).cacheHot).toBe(true);
  });

  it('fractional counts round up, so the stored state stays whole and restorable', () => {
    const session = new FoldSession({ pressureCeiling: 1_000, countTokens: (text) => text.length / 3.7, now: () => 0 });
    const history: ProviderMessage[] = [{ role: 'system', content: 'sys' }];
    for (let i = 0; i < 30; i++)
      history.push(
        { role: 'user', content: `task ${i} `.repeat(40) },
        { role: 'assistant', content: `done ${i} `.repeat(20) },
      );
    const outcome = session.prepare(history);
    expect(Number.isInteger(outcome.stats.viewTokens)).toBe(true);
    expect(() => new FoldSession({ pressureCeiling: 1_000, restoredState: session.snapshot() })).not.toThrow();
  });
});
