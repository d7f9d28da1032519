/**
 * The OpenAI Responses and AI SDK dialects one behaviour at a time: detection, typed errors that
 * name the message and the field, opaque reasoning and provider options passed through as the
 * same objects, synthetic messages and clipped copies in the input's own shape, and cuts that
 * never separate a Responses step or a call from its output.
 */
import { modelMessageSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { foldContext } from '../../src/fold/index.ts';
import { FoldSession, FoldInputError } from '../../src/index.ts';
import { detectDialect, Transcript, type ProviderMessage } from '../../src/messages/index.ts';
import { estimateTokens } from '../../src/text/estimate-tokens.ts';
import { pairingProblems, viewTokens } from '../helpers/view-checks.ts';
import { readTranscript } from '../../src/transcripts/index.ts';

const log = (seed: string, lines: number) =>
  Array.from(
    { length: lines },
    (_, n) => `${seed} ${n}: request ${(n * 7_919).toString(16)} handled in ${n % 97}ms`,
  ).join('\n');

/** A Responses history: per step a reasoning item, a message and two parallel calls, then both outputs. */
function responsesHistory(steps: number, lines = 30): ProviderMessage[] {
  const items: ProviderMessage[] = [
    { role: 'developer', content: 'You are a build agent.' },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Make the build green.' }] },
  ];
  for (let step = 0; step < steps; step++) {
    items.push(
      {
        type: 'reasoning',
        id: `rs_${step}`,
        summary: [{ type: 'summary_text', text: `Look at target ${step}.` }],
        encrypted_content: `gAAAAB-secret-${step}`,
      },
      {
        type: 'message',
        id: `msg_${step}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: `Building target ${step}.`, annotations: [] }],
      },
      {
        type: 'function_call',
        id: `fc_${step}a`,
        call_id: `call_${step}a`,
        name: 'bash',
        arguments: JSON.stringify({ command: `make target-${step}` }),
      },
      {
        type: 'function_call',
        id: `fc_${step}b`,
        call_id: `call_${step}b`,
        name: 'read_file',
        arguments: JSON.stringify({ path: `src/target-${step}.c` }),
      },
      { type: 'function_call_output', call_id: `call_${step}b`, output: log(`file-${step}`, lines) },
      { type: 'function_call_output', call_id: `call_${step}a`, output: log(`make-${step}`, lines) },
    );
  }
  return items;
}

/** An AI SDK history: assistant parts with a signed reasoning part, one tool message per step. */
function modelMessageHistory(steps: number, lines = 30): ProviderMessage[] {
  const messages: ProviderMessage[] = [
    { role: 'system', content: 'You are a build agent.' },
    {
      role: 'user',
      content: [{ type: 'text', text: 'Make the build green.' }],
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    },
  ];
  for (let step = 0; step < steps; step++) {
    messages.push(
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: `Look at target ${step}.`,
            providerOptions: { anthropic: { signature: `sig-${step}` } },
          },
          { type: 'text', text: `Building target ${step}.` },
          {
            type: 'tool-call',
            toolCallId: `call_${step}`,
            toolName: 'bash',
            input: { command: `make target-${step}` },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `call_${step}`,
            toolName: 'bash',
            output:
              step % 2
                ? { type: 'json', value: { log: log(`make-${step}`, lines) } }
                : { type: 'text', value: log(`make-${step}`, lines) },
          },
        ],
      },
    );
  }
  return messages;
}

describe('detection', () => {
  it.each<[string, ProviderMessage[], string]>([
    [
      'a Responses function_call item',
      [
        { role: 'user', content: 'hi' },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      ],
      'openai-responses',
    ],
    [
      'a Responses input_text part',
      [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      'openai-responses',
    ],
    [
      'a Responses message item with string content',
      [{ type: 'message', role: 'user', content: 'hi' }],
      'openai-responses',
    ],
    [
      'an AI SDK tool message',
      [
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'f', output: { type: 'text', value: '' } }],
        },
      ],
      'ai-sdk',
    ],
    ['AI SDK providerOptions', [{ role: 'user', content: 'hi', providerOptions: { anthropic: {} } }], 'ai-sdk'],
    [
      'an AI SDK image part',
      [{ role: 'user', content: [{ type: 'image', image: 'https://example.com/a.png' }] }],
      'ai-sdk',
    ],
    [
      'an Anthropic image block',
      [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
            { type: 'tool_result', tool_use_id: 'x', content: '' },
          ],
        },
      ],
      'anthropic',
    ],
    [
      'an Anthropic response object (type message, with blocks)',
      [{ type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] }],
      'anthropic',
    ],
    ['an OpenAI chat tool message', [{ role: 'tool', tool_call_id: 'c', content: 'x' }], 'openai'],
  ])('%s', (_, history, dialect) => {
    expect(detectDialect(history)).toBe(dialect);
  });

  it('a text-only start read as chat and later settled as Responses keeps its sealed prefix', () => {
    const session = new FoldSession({ pressureCeiling: 2_000, countTokens: estimateTokens });
    const text: ProviderMessage[] = [{ role: 'user', content: 'Summarise the logs.' }];
    for (let i = 0; i < 12; i++)
      text.push({ role: 'assistant', content: log(`reply-${i}`, 12) }, { role: 'user', content: `Next part ${i}.` });
    const first = session.prepare(text);
    expect(first.sealedBoundary).not.toBeNull();
    const settled = [...text, { type: 'function_call', call_id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }];
    const second = session.prepare(settled);
    expect(second.cacheHot).toBe(true);
    expect(JSON.stringify(second.messages.slice(0, first.sealedBoundary! + 1))).toBe(
      JSON.stringify(first.messages.slice(0, first.sealedBoundary! + 1)),
    );
  });
});

describe('transcript files', () => {
  it('reads a saved Responses input list and an AI SDK message list in their own format', () => {
    const items = responsesHistory(2);
    expect(readTranscript(JSON.stringify(items))).toMatchObject({
      format: 'openai-responses-input',
      dialect: 'openai-responses',
      messages: items,
      issues: [],
    });
    const messages = modelMessageHistory(2);
    expect(readTranscript(JSON.stringify(messages))).toMatchObject({
      format: 'ai-sdk-messages',
      dialect: 'ai-sdk',
      messages,
      issues: [],
    });
  });
});

describe('bad input names the message and the field', () => {
  const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] };
  const call = { type: 'function_call', call_id: 'c1', name: 'bash', arguments: '{}' };
  it.each<[string, ProviderMessage[], number, RegExp]>([
    ['function_call without call_id', [user, { type: 'function_call', name: 'bash', arguments: '{}' }], 1, /call_id/],
    [
      'function_call with object arguments',
      [user, { type: 'function_call', call_id: 'c', name: 'bash', arguments: {} }],
      1,
      /arguments/,
    ],
    ['function_call without name', [user, { type: 'function_call', call_id: 'c', arguments: '{}' }], 1, /name/],
    [
      'an output answering no call',
      [user, call, { type: 'function_call_output', call_id: 'c2', output: 'x' }],
      2,
      /c2.*answers no pending call/,
    ],
    ['an output without call_id', [user, call, { type: 'function_call_output', output: 'x' }], 2, /call_id/],
    [
      'a message item with an unknown role',
      [user, { type: 'message', role: 'robot', content: 'x' }],
      1,
      /role "robot"/,
    ],
    ['message content that is a number', [user, { type: 'message', role: 'user', content: 7 }], 1, /content must be/],
    ['a message item without content', [user, { type: 'message', role: 'assistant' }], 1, /needs content/],
    ['a shell_call without commands', [user, { type: 'shell_call', call_id: 'c', action: {} }], 1, /action\.commands/],
    [
      'a shell_call_output whose output is a string',
      [
        user,
        { type: 'shell_call', call_id: 'c', action: { commands: ['ls'] } },
        { type: 'shell_call_output', call_id: 'c', output: 'x' },
      ],
      2,
      /output array/,
    ],
    [
      'an apply_patch_call without a path',
      [
        user,
        { type: 'apply_patch_call', call_id: 'c', status: 'completed', operation: { type: 'update_file', diff: '' } },
      ],
      1,
      /operation\.path/,
    ],
  ])('Responses: %s', (_, history, index, problem) => {
    const error = captured(() => new FoldSession().prepare(history));
    expect(error).toBeInstanceOf(FoldInputError);
    expect((error as FoldInputError).messageIndex).toBe(index);
    expect((error as FoldInputError).message).toMatch(problem);
  });

  const assistant = {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: {} }],
  };
  it.each<[string, ProviderMessage[], number, RegExp]>([
    [
      'a tool-call without toolCallId',
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool-call', toolName: 'bash', input: {} }] },
      ],
      1,
      /content\[0\]\.toolCallId/,
    ],
    [
      'a tool-call without input',
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'bash' }] },
      ],
      1,
      /content\[0\]\.input/,
    ],
    [
      'a tool-result with an unknown output type',
      [
        assistant,
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'bash', output: { type: 'yaml', value: '' } }],
        },
      ],
      1,
      /content\[0\]\.output has an unknown type "yaml"/,
    ],
    [
      'a tool-result with ai 4 `result` instead of output',
      [
        assistant,
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'bash', result: 'x' }] },
      ],
      1,
      /content\[0\]\.output must be an object/,
    ],
    [
      'a tool-result answering no call',
      [
        assistant,
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c9', toolName: 'bash', output: { type: 'text', value: '' } }],
        },
      ],
      1,
      /"c9" answers no pending tool-call/,
    ],
    [
      'a tool message with string content',
      [assistant, { role: 'tool', content: 'x', providerOptions: {} }],
      1,
      /tool message/,
    ],
    [
      'a system message with parts',
      [{ role: 'system', content: [{ type: 'text', text: 'x' }] }, assistant],
      0,
      /system message must be a string/,
    ],
    [
      'a tool-call on a user message',
      [{ role: 'user', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'bash', input: {} }] }],
      0,
      /tool-call on a user message/,
    ],
    [
      'a part without a type',
      [assistant, { role: 'tool', content: [{ toolCallId: 'c1' }] }],
      1,
      /content\[0\] needs a string type/,
    ],
  ])('AI SDK: %s', (_, history, index, problem) => {
    const error = captured(() => new FoldSession().prepare(history));
    expect(error).toBeInstanceOf(FoldInputError);
    expect((error as FoldInputError).messageIndex).toBe(index);
    expect((error as FoldInputError).message).toMatch(problem);
  });

  it('a failed prepare leaves the session as it was', () => {
    const session = new FoldSession({ pressureCeiling: 2_000, countTokens: estimateTokens });
    const history = responsesHistory(6);
    const before = session.prepare(history);
    expect(() => session.prepare([...history, { type: 'function_call_output', call_id: 'nope', output: 'x' }])).toThrow(
      FoldInputError,
    );
    expect(JSON.stringify(session.prepare(history).messages)).toBe(JSON.stringify(before.messages));
  });
});

function captured(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('Responses items in a folded view', () => {
  const history = responsesHistory(14);
  const session = new FoldSession({ pressureCeiling: 3_000, countTokens: estimateTokens });
  const outcome = session.prepare(history);
  const view = outcome.messages;

  it('folds into input messages and passes the rest through as the same objects', () => {
    expect(outcome.stats.bands).toBeGreaterThan(0);
    expect(viewTokens(view, estimateTokens)).toBeLessThanOrEqual(3_000);
    const band = view.find((item) => JSON.stringify(item).includes('[warpfold fold'));
    expect(band).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: expect.stringMatching(/^\[warpfold fold/) }],
    });
    expect(view[view.indexOf(band!) + 1]).toEqual({ type: 'message', role: 'assistant', content: 'Understood.' });
    const raw = new Set(history);
    for (const item of view)
      if (!JSON.stringify(item).includes('[warpfold') && item.content !== 'Understood.')
        expect(raw.has(item)).toBe(true);
  });

  it('never starts the raw tail inside a step or between a call and its output', () => {
    const tail = view.slice(outcome.sealedBoundary! + 1);
    expect(tail[0].type).toBe('reasoning');
    const transcript = new Transcript(estimateTokens);
    transcript.sync(history);
    history.forEach((item, index) => {
      const safe = transcript.isSafeCut(index);
      // safe only at the developer message, the instruction and each step's reasoning item
      expect(safe, `${index} ${String(item.type)}`).toBe(index <= 1 || item.type === 'reasoning');
    });
  });

  it('keeps the summary of reasoning out of the count (OpenAI does not take reasoning back as text) and the encrypted content untouched', () => {
    const transcript = new Transcript(estimateTokens);
    transcript.sync([history[1], history[2]]);
    expect(transcript.messages[1].reasoning).toBe('Look at target 0.');
    expect(transcript.tokens[1]).toBe(estimateTokens('<assistant>\n\n'));
    for (const item of view) if (item.type === 'reasoning') expect(history).toContain(item);
  });

  it('clips one huge output under the ceiling and leaves reasoning and calls whole', () => {
    const huge = [
      ...responsesHistory(2),
      { type: 'reasoning', id: 'rs_big', summary: [], encrypted_content: 'gAAAAB-big' },
      { type: 'function_call', call_id: 'big', name: 'bash', arguments: '{"command":"cat huge.log"}' },
      { type: 'function_call_output', call_id: 'big', output: log('huge', 4_000) },
    ];
    const clipped = new FoldSession({ pressureCeiling: 3_000, countTokens: estimateTokens }).prepare(huge);
    expect(clipped.stats.clippedMessages).toBe(1);
    expect(viewTokens(clipped.messages, estimateTokens)).toBeLessThanOrEqual(3_000);
    const output = clipped.messages[clipped.messages.length - 1];
    expect(output).toMatchObject({
      type: 'function_call_output',
      call_id: 'big',
      output: expect.stringContaining('[warpfold clipped'),
    });
    expect(clipped.messages[clipped.messages.length - 2]).toBe(huge[huge.length - 2]);
    expect(clipped.messages[clipped.messages.length - 3]).toBe(huge[huge.length - 3]);
  });

  it('foldContext folds the older steps of one marathon turn, whole steps only', () => {
    const marathon = responsesHistory(30, 10);
    const folded = foldContext(marathon, { countTokens: estimateTokens });
    expect(folded.messagesFolded).toBeGreaterThan(0);
    expect(folded.messages[1]).toBe(marathon[1]);
    const band = folded.messages.findIndex((item) => JSON.stringify(item).includes('[warpfold fold'));
    expect(folded.messages[band + 2].type).toBe('reasoning');
    expect(pairingProblems(folded.messages, 'openai-responses')).toEqual([]);
  });

  it('survives a snapshot and restore', () => {
    const restored = new FoldSession({
      pressureCeiling: 3_000,
      countTokens: estimateTokens,
      restoredState: session.snapshot(),
    });
    expect(JSON.stringify(restored.prepare(history).messages)).toBe(JSON.stringify(view));
  });
});

describe('AI SDK messages in a folded view', () => {
  const history = modelMessageHistory(16);
  const outcome = new FoldSession({ pressureCeiling: 3_000, countTokens: estimateTokens }).prepare(history);
  const view = outcome.messages;

  it('folds into ModelMessages of text parts, keeps providerOptions on unfolded messages, and every message parses', () => {
    expect(outcome.stats.bands).toBeGreaterThan(0);
    expect(viewTokens(view, estimateTokens)).toBeLessThanOrEqual(3_000);
    const band = view.find((message) => JSON.stringify(message).includes('[warpfold fold'));
    expect(band).toEqual({
      role: 'user',
      content: [{ type: 'text', text: expect.stringMatching(/^\[warpfold fold/) }],
    });
    expect(view[1]).toBe(history[1]);
    expect(view[1].providerOptions).toEqual({ anthropic: { cacheControl: { type: 'ephemeral' } } });
    const last = view[view.length - 2];
    expect(last).toBe(history[history.length - 2]);
    for (const message of view) expect(modelMessageSchema.safeParse(message).success).toBe(true);
  });

  it('clips a huge JSON output into a text output and leaves the signed reasoning whole', () => {
    const huge = [
      ...modelMessageHistory(2),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Read it all.', providerOptions: { anthropic: { signature: 'sig-big' } } },
          { type: 'tool-call', toolCallId: 'big', toolName: 'bash', input: { command: 'cat huge.log' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'big',
            toolName: 'bash',
            output: { type: 'json', value: { log: log('huge', 4_000) } },
          },
        ],
      },
    ];
    const clipped = new FoldSession({ pressureCeiling: 3_000, countTokens: estimateTokens }).prepare(huge);
    expect(clipped.stats.clippedMessages).toBe(1);
    expect(viewTokens(clipped.messages, estimateTokens)).toBeLessThanOrEqual(3_000);
    const tool = clipped.messages[clipped.messages.length - 1] as {
      content: Array<{ output: { type: string; value: string } }>;
    };
    expect(tool.content[0].output.type).toBe('text');
    expect(tool.content[0].output.value).toContain('[warpfold clipped');
    expect(clipped.messages[clipped.messages.length - 2]).toBe(huge[huge.length - 2]);
    for (const message of clipped.messages) expect(modelMessageSchema.safeParse(message).success).toBe(true);
  });
});
