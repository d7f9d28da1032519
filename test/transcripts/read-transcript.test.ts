import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTranscript, TranscriptFormatError } from '../../src/transcripts/index.ts';

describe('readTranscript on plain message arrays', () => {
  it('detects each provider dialect from the messages', () => {
    const openai = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
    ];
    const anthropic = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] },
    ];
    const gemini = [
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'hello' }] },
    ];
    expect(readTranscript(JSON.stringify(openai))).toMatchObject({
      format: 'openai-messages',
      dialect: 'openai',
      messages: openai,
      issues: [],
    });
    expect(readTranscript(JSON.stringify(anthropic))).toMatchObject({
      format: 'anthropic-messages',
      dialect: 'anthropic',
      messages: anthropic,
    });
    expect(readTranscript(JSON.stringify(gemini))).toMatchObject({
      format: 'gemini-contents',
      dialect: 'gemini',
      messages: gemini,
    });
    expect(readTranscript(JSON.stringify({ contents: gemini }))).toMatchObject({
      format: 'gemini-contents',
      messages: gemini,
    });
  });

  it('reads the benchmark’s { messages } session files, keeping id and model', () => {
    const session = {
      id: 'tau-airline-1',
      model: 'gpt-4o',
      license: 'MIT',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
    };
    expect(readTranscript(JSON.stringify(session, null, 2))).toEqual({
      format: 'benchmark-session',
      dialect: 'openai',
      messages: session.messages,
      issues: [],
      metadata: { sessionId: 'tau-airline-1', model: 'gpt-4o' },
    });
  });

  it('drops elements that are not messages with an issue naming their index', () => {
    const result = readTranscript(JSON.stringify([{ role: 'user', content: 'hi' }, 42, { content: 'no role' }]));
    expect(result.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(result.issues.map((issue) => issue.detail)).toEqual([
      expect.stringContaining('element 1'),
      expect.stringContaining('element 2'),
    ]);
  });
});

describe('readTranscript line handling', () => {
  it('reads CRLF line ends and a leading byte-order mark', () => {
    const lines = [
      { type: 'user', sessionId: 's', uuid: 'a', message: { role: 'user', content: 'hi' } },
      {
        type: 'assistant',
        sessionId: 's',
        uuid: 'b',
        message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      },
    ].map((line) => JSON.stringify(line));
    const result = readTranscript(`\uFEFF${lines.join('\r\n')}\r\n`);
    expect(result.issues).toEqual([]);
    expect(result.messages).toHaveLength(2);
  });
});

describe('readTranscript errors', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['empty', '  \n ', /unknown: the text is empty/],
    ['not JSON', 'hello\nworld', /unknown: line 1: no line parses as JSON/],
    [
      'unknown JSON object',
      '{"rows": []}',
      /unknown: line 1: no known transcript format: the first record has \["rows"\]/,
    ],
    ['an array of non-messages', '[1, 2]', /no element is a message/],
    ['JSONL of unknown records', '{"a":1}\n{"b":2}', /unknown: line 1: no known transcript format/],
  ];
  for (const [name, text, message] of cases) {
    it(`throws TranscriptFormatError for ${name}`, () => {
      expect(() => readTranscript(text)).toThrow(TranscriptFormatError);
      expect(() => readTranscript(text)).toThrow(message);
    });
  }
  it('names the line of the first readable problem', () => {
    try {
      readTranscript('\n\n{"a":');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TranscriptFormatError);
      expect((error as TranscriptFormatError).line).toBe(3);
    }
  });
});

describe('readTranscript never throws mid-file', () => {
  it('reports exactly the damaged lines of a Claude Code file and keeps every other record', () => {
    const record = (index: number) =>
      JSON.stringify({
        type: index % 2 === 0 ? 'user' : 'assistant',
        sessionId: 's',
        uuid: `u${index}`,
        message: {
          role: index % 2 === 0 ? 'user' : 'assistant',
          content: [{ type: 'text', text: `message ${index}` }],
        },
      });
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.uniqueArray(fc.nat(), { maxLength: 10 }), (count, damage) => {
        const lines = Array.from({ length: count }, (_, index) => record(index));
        const damaged = new Set(damage.map((at) => at % count).filter((at) => at !== 0));
        for (const at of damaged) lines[at] = lines[at].slice(0, 25);
        const result = readTranscript(lines.join('\n'));
        expect(result.issues.map((issue) => issue.line)).toEqual(
          [...damaged].sort((a, b) => a - b).map((at) => at + 1),
        );
        const texts = result.messages.flatMap((message) =>
          (message.content as Array<{ text: string }>).map((block) => block.text),
        );
        expect(texts).toEqual(
          Array.from({ length: count }, (_, index) => index)
            .filter((index) => !damaged.has(index))
            .map((index) => `message ${index}`),
        );
      }),
      { seed: 12, numRuns: 200 },
    );
  });
});
