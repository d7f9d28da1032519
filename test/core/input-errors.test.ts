/**
 * Malformed input fails with a typed FoldInputError that names the message index and the problem,
 * and leaves the session usable; unusual but valid input (empty content, a pending call at the
 * end, reused tool-call ids, one result bigger than the ceiling, a history that opens with the
 * assistant, a marathon turn) goes through without throwing and with a provider-valid view.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  FoldInputError,
  FoldSession,
  FoldStateError,
  type FoldPrepareOptions,
  type ProviderMessage,
} from '../../src/index.ts';
import { SAVED_SESSION_VERSION } from '../../src/freeze/index.ts';
import { DIALECTS, toDialect, type Dialect } from '../helpers/dialects.ts';
import { preparePoints } from '../helpers/drive.ts';
import { keyProblems, pairingProblems, textOf, viewTokens } from '../helpers/view-checks.ts';
import { marathonScript } from '../helpers/scripts.ts';

const session = (ceiling = 4_000) => new FoldSession({ pressureCeiling: ceiling, countTokens, now: () => 0 });

/** The FoldInputError `prepare` throws, or a failure when it throws anything else or nothing. */
function inputError(history: unknown, options?: FoldPrepareOptions, target = session()): FoldInputError {
  try {
    target.prepare(history as ProviderMessage[], options);
  } catch (error) {
    expect(error).toBeInstanceOf(FoldInputError);
    return error as FoldInputError;
  }
  throw new Error('expected prepare to throw a FoldInputError');
}

const openAiCall = (id: string, name = 'bash', args: object = { command: 'ls' }) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});

describe('malformed input → FoldInputError naming the message and the problem', () => {
  it.each([
    ['null', null],
    ['an object', { messages: [] }],
    ['a string', '[{"role":"user"}]'],
    ['undefined', undefined],
  ])('history that is %s', (_, history) => {
    const error = inputError(history);
    expect(error.name).toBe('FoldInputError');
    expect(error.messageIndex).toBe(-1);
    expect(error.problem).toMatch(/array/);
    expect(error.message).toContain(error.problem);
  });

  it.each([
    ['null', null],
    ['a number', 42],
    ['a string', 'hello'],
    ['an array', [{ role: 'user', content: 'hi' }]],
  ])('message that is %s', (_, bad) => {
    const error = inputError([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'ok' }, bad]);
    expect(error.messageIndex).toBe(2);
    expect(error.problem).toMatch(/message object/);
    expect(error.message).toMatch(/^message 2: /);
  });

  it.each<[string, ProviderMessage[], number]>([
    [
      'an unknown role',
      [
        { role: 'user', content: 'hi' },
        { role: 'robot', content: 'beep' },
      ],
      1,
    ],
    ['a missing role', [{ role: 'user', content: 'hi' }, { content: 'no role' }], 1],
    [
      'an OpenAI role in a Gemini history',
      [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'assistant', parts: [{ text: 'ok' }] },
      ],
      1,
    ],
    [
      'a Gemini role in an Anthropic history',
      [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '' }] },
        { role: 'model', content: 'ok' },
      ],
      3,
    ],
  ])('%s', (_, history, index) => {
    const error = inputError(history);
    expect(error.messageIndex).toBe(index);
    expect(error.problem).toMatch(/unknown role/);
  });

  it.each<[string, ProviderMessage[], number, RegExp]>([
    ['OpenAI content that is a number', [{ role: 'user', content: 42 }], 0, /content must be a string/],
    [
      'OpenAI content that is an object',
      [
        { role: 'system', content: 'sys' },
        { role: 'user', content: { text: 'hi' } },
      ],
      1,
      /content must be a string/,
    ],
    ['OpenAI content holding a bare number', [{ role: 'user', content: [1, 2] }], 0, /neither text nor a typed block/],
    [
      'OpenAI tool_calls that is not an array',
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: {} },
        { role: 'tool', tool_call_id: 'a', content: '' },
      ],
      1,
      /tool_calls must be an array/,
    ],
    [
      'OpenAI tool call without a function name',
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: {} }] },
      ],
      1,
      /function\.name/,
    ],
    [
      'OpenAI tool_calls on a user message',
      [{ role: 'user', content: 'hi', tool_calls: [] }],
      0,
      /tool_calls on a user message/,
    ],
    [
      'Anthropic content block that is a number',
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'x' }, 7] },
      ],
      1,
      /content\[1\] is not a block/,
    ],
    [
      'Anthropic tool_use without a name',
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', input: {} }] },
      ],
      1,
      /tool_use needs a name/,
    ],
    [
      'Gemini parts that is not an array',
      [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: 'ok' },
      ],
      1,
      /parts array/,
    ],
    [
      'Gemini part that is not an object',
      [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'ok' }, null] },
      ],
      1,
      /parts\[1\] is not an object/,
    ],
    [
      'Gemini functionCall without a name',
      [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ functionCall: { args: {} } }] },
      ],
      1,
      /functionCall needs a name/,
    ],
  ])('%s', (_, history, index, problem) => {
    const error = inputError(history);
    expect(error.messageIndex).toBe(index);
    expect(error.problem).toMatch(problem);
  });

  it.each<[Dialect, ProviderMessage[], number]>([
    [
      'openai',
      [
        { role: 'user', content: 'hi' },
        openAiCall('call_1'),
        { role: 'tool', tool_call_id: 'call_1', content: 'a' },
        { role: 'tool', tool_call_id: 'call_9', content: 'b' },
      ],
      3,
    ],
    [
      'openai',
      [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'call_1', content: 'orphan' },
      ],
      1,
    ],
    [
      'anthropic',
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'x' }] },
      ],
      2,
    ],
    [
      'gemini',
      [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'ok' }] },
        { role: 'user', parts: [{ functionResponse: { name: 'bash', response: { output: 'x' } } }] },
      ],
      2,
    ],
  ])('a %s tool result without its call', (_, history, index) => {
    const error = inputError(history);
    expect(error.messageIndex).toBe(index);
    expect(error.problem).toMatch(/answers no pending/);
  });

  it.each([
    ['negative', -1],
    ['NaN', Number.NaN],
    ['infinite', Number.POSITIVE_INFINITY],
    ['a string', '1200' as unknown as number],
  ])('measuredInputTokens that is %s', (_, measured) => {
    const error = inputError([{ role: 'user', content: 'hi' }], { measuredInputTokens: measured });
    expect(error.messageIndex).toBe(-1);
    expect(error.problem).toMatch(/measuredInputTokens/);
  });

  it('a pressureCeiling under 1,000 tokens or not a number, and a restoredState that is not a state', () => {
    for (const ceiling of [999, 0, -5, Number.NaN, '8000' as unknown as number])
      expect(() => new FoldSession({ pressureCeiling: ceiling })).toThrow(FoldInputError);
    expect(() => new FoldSession({ restoredState: 'not json' })).toThrow(FoldStateError);
    expect(
      () => new FoldSession({ restoredState: `{"format":"warpfold/session","version":${SAVED_SESSION_VERSION + 1}}` }),
    ).toThrow(new RegExp(`version ${SAVED_SESSION_VERSION + 1}`));
  });

  it('bad input leaves the session as it was: the next valid call gives what a fresh session gives', () => {
    const history: ProviderMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
      openAiCall('call_1'),
      { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
    ];
    const used = session(2_000);
    used.prepare(history.slice(0, 2));
    expect(() => used.prepare([...history, { role: 'tool', tool_call_id: 'call_7', content: 'orphan' }])).toThrow(
      FoldInputError,
    );
    expect(() => used.prepare([...history.slice(0, 3), 17 as unknown as ProviderMessage])).toThrow(FoldInputError);
    expect(JSON.stringify(used.prepare(history).messages)).toBe(
      JSON.stringify(session(2_000).prepare(history).messages),
    );
  });
});

describe('unusual but valid input goes through', () => {
  function expectValid(history: ProviderMessage[], dialect: Dialect, ceiling = 4_000) {
    const outcome = session(ceiling).prepare(history);
    expect(pairingProblems(outcome.messages, dialect)).toEqual([]);
    expect(keyProblems(outcome.messages, dialect)).toEqual([]);
    return outcome;
  }

  it.each<[Dialect, ProviderMessage[]]>([
    [
      'openai',
      [
        { role: 'system', content: '' },
        { role: 'user', content: '' },
        { role: 'assistant', content: null },
        { role: 'user', content: [] },
        { role: 'assistant', content: '' },
      ],
    ],
    [
      'anthropic',
      [
        { role: 'user', content: [] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: '' }] },
        { role: 'user', content: '' },
        { role: 'assistant', content: [{ type: 'text', text: '' }] },
      ],
    ],
    [
      'gemini',
      [
        { role: 'user', parts: [] },
        { role: 'model', parts: [{ text: '' }] },
        { role: 'user', parts: [{ text: '' }] },
      ],
    ],
  ])('empty content (%s)', (dialect, history) => {
    expectValid(history, dialect);
  });

  it.each(DIALECTS)('a pending tool call at the end stays, last, with its call (%s)', (dialect) => {
    const script = {
      system: 'sys',
      turns: [
        {
          instruction: 'List the files.',
          steps: [
            {
              calls: [
                { id: 'p1', name: 'bash', args: { command: 'ls' } },
                { id: 'p2', name: 'read_file', args: { path: '/a.txt' } },
              ],
              results: [],
            },
          ],
        },
      ],
    };
    const history = toDialect(script, dialect);
    const outcome = expectValid(history, dialect);
    expect(outcome.messages[outcome.messages.length - 1]).toStrictEqual(history[history.length - 1]);
  });

  it.each(DIALECTS)('tool-call ids reused after their results came back (tau-bench style) (%s)', (dialect) => {
    const step = (command: string) => ({
      calls: [
        { id: '0', name: 'bash', args: { command } },
        { id: '1', name: 'grep', args: { pattern: command } },
      ],
      results: [
        { text: `${command}: ok`, isError: false },
        { text: `${command}: 3 hits`, isError: false },
      ],
    });
    const script = {
      system: 'sys',
      turns: [
        {
          instruction: 'Check the three services.',
          steps: [step('svc-a'), step('svc-b'), step('svc-c')],
          reply: 'All fine.',
        },
        { instruction: 'And again.', steps: [step('svc-d')] },
      ],
    };
    const history = toDialect(script, dialect);
    expect(history.filter((message) => JSON.stringify(message).includes('_0"')).length).toBeGreaterThan(2);
    const folding = session(1_000);
    for (const point of preparePoints(history)) {
      const outcome = folding.prepare(history.slice(0, point));
      expect(pairingProblems(outcome.messages, dialect), `history length ${point}`).toEqual([]);
    }
  });

  const hugeResultHistory = (dialect: Dialect) => {
    const huge = Array.from(
      { length: 3_000 },
      (_, n) => `${n} 2024-05-01T10:00:00Z INFO worker-${n % 7} processed job ${n * 31}`,
    ).join('\n');
    const script = {
      system: 'You are an SRE agent.',
      turns: [
        {
          instruction: 'Look at the deploy.',
          steps: [
            {
              text: 'Checking.',
              calls: [{ id: 'd1', name: 'bash', args: { command: 'kubectl get pods' } }],
              results: [{ text: 'api-1 Running\napi-2 Running', isError: false }],
            },
          ],
          reply: 'Pods are up.',
        },
        {
          instruction: 'Now find why jobs are slow.',
          steps: [
            {
              calls: [{ id: 'h1', name: 'bash', args: { command: 'kubectl logs worker --since=24h' } }],
              results: [{ text: huge, isError: false }],
            },
          ],
        },
      ],
    };
    expect(countTokens(huge)).toBeGreaterThan(3 * 4_000);
    return toDialect(script, dialect);
  };

  it.each(DIALECTS)(
    'one tool result bigger than the whole ceiling, after some history, is clipped under it (%s)',
    (dialect) => {
      const outcome = expectValid(hugeResultHistory(dialect), dialect);
      expect(outcome.stats.clippedMessages).toBe(1);
      expect(viewTokens(outcome.messages, countTokens)).toBeLessThanOrEqual(4_000);
      expect(textOf(outcome.messages)).toContain('[warpfold clipped');
    },
  );

  // bug B of engine-bugs.test.ts: the clip path folded the live instruction without pinning it
  it.each(DIALECTS)('…and the live instruction survives the clip (%s)', (dialect) => {
    const outcome = session().prepare(hugeResultHistory(dialect));
    expect(textOf(outcome.messages)).toContain('Now find why jobs are slow.');
  });

  it.each<[Dialect, ProviderMessage[]]>([
    [
      'openai',
      [
        { role: 'assistant', content: 'Hello! How can I help?' },
        { role: 'user', content: 'Fix the build.' },
      ],
    ],
    [
      'anthropic',
      [
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Hello!' },
            { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'pwd' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '/work' }] },
        { role: 'user', content: 'Fix the build.' },
      ],
    ],
    [
      'gemini',
      [
        { role: 'model', parts: [{ text: 'Hello!' }] },
        { role: 'user', parts: [{ text: 'Fix the build.' }] },
      ],
    ],
  ])('a history that starts with an assistant message (%s)', (dialect, history) => {
    const outcome = expectValid(history, dialect);
    expect(textOf(outcome.messages)).toContain('Fix the build.');
  });

  it.each(DIALECTS)(
    'a marathon turn (one instruction, 300 tool steps): the instruction survives in every view (%s)',
    (dialect) => {
      const script = marathonScript(300, 3);
      const history = toDialect(script, dialect);
      const instruction = script.turns[0].instruction;
      const folding = session(3_000);
      let folds = 0;
      for (const point of preparePoints(history)) {
        const outcome = folding.prepare(history.slice(0, point));
        if (outcome.stats.epochReason) folds++;
        expect(textOf(outcome.messages), `history length ${point}`).toContain(instruction);
        expect(viewTokens(outcome.messages, countTokens), `history length ${point}`).toBeLessThanOrEqual(3_000);
      }
      expect(folds).toBeGreaterThan(5);
    },
  );
});
