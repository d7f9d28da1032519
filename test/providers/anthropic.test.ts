import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import {
  ANTHROPIC_EXTENDED_TTL_BETA,
  prepareAnthropicCachedRequest,
  readAnthropicUsage,
} from '../../src/providers/anthropic/index.ts';
import { readTranscript } from '../../src/transcripts/index.ts';
import { ProviderInputError } from '../../src/index.ts';

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
};

const tools = [
  {
    name: 'bash',
    description: 'Run a command',
    input_schema: { type: 'object', properties: { command: { type: 'string' } } },
  },
  {
    name: 'read',
    description: 'Read a file',
    input_schema: { type: 'object', properties: { path: { type: 'string' } } },
  },
];
const system = 'You are a careful engineer.\n## Your Identity\nSession 42, started 10:00.';
// A folded view as FoldSession writes it: raw head (string), a band (text blocks) and its acknowledgement, then the raw tail.
const view = [
  { role: 'user', content: 'fix the failing test' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'npm test' } },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: '[warpfold fold · messages 2–9]\n▸ bash: npm test → error' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
  { role: 'user', content: 'now run it again' },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'ok', signature: 'sig' },
      { type: 'tool_use', id: 't2', name: 'bash', input: { command: 'npm test' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'all green' }] },
];

describe('prepareAnthropicCachedRequest', () => {
  it('places the four breakpoints: last tool, system head, sealed boundary, rolling tail', () => {
    const { request, requestOptions, anthropicBeta, breakpoints } = prepareAnthropicCachedRequest({
      messages: deepFreeze(view),
      sealedBoundary: 3,
      system,
      tools: deepFreeze(tools),
      params: { model: 'claude-sonnet-4-5', max_tokens: 1024 },
    });
    expect(request).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: [
        { type: 'text', text: 'You are a careful engineer.\n', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: '## Your Identity\nSession 42, started 10:00.' },
      ],
      tools: [tools[0], { ...tools[1], cache_control: { type: 'ephemeral' } }],
      messages: [
        view[0],
        view[1],
        view[2],
        { role: 'assistant', content: [{ type: 'text', text: 'Noted.', cache_control: { type: 'ephemeral' } }] },
        view[4],
        view[5],
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't2', content: 'all green', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
    });
    expect(Object.keys(request)).toEqual(['model', 'max_tokens', 'system', 'tools', 'messages']);
    expect(requestOptions).toEqual({});
    expect(anthropicBeta).toEqual([]);
    expect(breakpoints.map((breakpoint) => breakpoint.site)).toEqual(['tools', 'system', 'sealed-boundary', 'tail']);
  });

  it('turns string content into a text block so the boundary can carry cache_control', () => {
    const { request } = prepareAnthropicCachedRequest({ messages: view, sealedBoundary: 4, system: 'plain' });
    const messages = request.messages as Array<{ content: unknown }>;
    expect(messages[4].content).toEqual([
      { type: 'text', text: 'now run it again', cache_control: { type: 'ephemeral' } },
    ]);
    expect(messages[0].content).toBe('fix the failing test');
    expect(request.system).toEqual([{ type: 'text', text: 'plain', cache_control: { type: 'ephemeral' } }]);
  });

  it('skips thinking blocks and empty text when choosing a block to mark', () => {
    const messages = [
      ...view.slice(0, 5),
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Done.' },
          { type: 'thinking', thinking: 'x', signature: 's' },
          { type: 'text', text: '' },
        ],
      },
    ];
    const { request } = prepareAnthropicCachedRequest({ messages, sealedBoundary: null });
    expect((request.messages as Array<{ content: unknown }>)[5].content).toEqual([
      { type: 'text', text: 'Done.', cache_control: { type: 'ephemeral' } },
      messages[5].content[1],
      messages[5].content[2],
    ]);
  });

  it('counts caller-placed breakpoints against the four and leaves them as they are', () => {
    const callerTools = [tools[0], { ...tools[1], cache_control: { type: 'ephemeral' } }];
    const callerMessages = view.map((message, index) =>
      index === 1
        ? {
            role: 'assistant',
            content: [{ ...(view[1].content[0] as object), cache_control: { type: 'ephemeral' } }, view[1].content[1]],
          }
        : message,
    );
    const { request, breakpoints } = prepareAnthropicCachedRequest({
      messages: callerMessages,
      sealedBoundary: 3,
      system,
      tools: callerTools,
    });
    expect(breakpoints.map((breakpoint) => breakpoint.site)).toEqual(['sealed-boundary', 'tail']);
    expect(request.tools).toEqual(callerTools);
    expect(request.system).toBe(system);
    const count = JSON.stringify(request).split('"cache_control"').length - 1;
    expect(count).toBe(4);
  });

  it('gives the boundary the last free slot, and places nothing when the caller used all four', () => {
    const marked = (index: number) => ({
      role: view[index].role,
      content: [{ type: 'text', text: `m${index}`, cache_control: { type: 'ephemeral' } }],
    });
    const three = [marked(0), marked(1), marked(2), view[3], view[4], view[5], view[6]];
    expect(
      prepareAnthropicCachedRequest({ messages: three, sealedBoundary: 3, system, tools }).breakpoints.map(
        (breakpoint) => breakpoint.site,
      ),
    ).toEqual(['sealed-boundary']);
    const four = [marked(0), marked(1), marked(2), marked(3), view[4], view[5], view[6]];
    const result = prepareAnthropicCachedRequest({ messages: four, sealedBoundary: 3, system, tools });
    expect(result.breakpoints).toEqual([]);
    expect(JSON.stringify(result.request).split('"cache_control"').length - 1).toBe(4);
    const five = [marked(0), marked(1), marked(2), marked(3), marked(4)];
    expect(() => prepareAnthropicCachedRequest({ messages: five, sealedBoundary: 3 })).toThrow(ProviderInputError);
    expect(() => prepareAnthropicCachedRequest({ messages: five, sealedBoundary: 3 })).toThrow(
      /the caller placed 5 breakpoints; the API allows 4/,
    );
  });

  it("a '1h' TTL adds the beta header; a longer TTL never follows a shorter one", () => {
    const long = prepareAnthropicCachedRequest({ messages: view, sealedBoundary: 3, tools, ttl: '1h' });
    expect(long.requestOptions).toEqual({ headers: { 'anthropic-beta': ANTHROPIC_EXTENDED_TTL_BETA } });
    expect(long.anthropicBeta).toEqual([ANTHROPIC_EXTENDED_TTL_BETA]);
    expect(long.breakpoints.map((breakpoint) => breakpoint.ttl)).toEqual(['1h', '1h', '1h']);
    expect((long.request.tools as Array<{ cache_control?: unknown }>)[1].cache_control).toEqual({
      type: 'ephemeral',
      ttl: '1h',
    });

    const mixed = prepareAnthropicCachedRequest({
      messages: view,
      sealedBoundary: 3,
      tools,
      prefixTtl: '1h',
      tailTtl: '5m',
    });
    expect(mixed.breakpoints.map((breakpoint) => [breakpoint.site, breakpoint.ttl])).toEqual([
      ['tools', '1h'],
      ['sealed-boundary', '1h'],
      ['tail', '5m'],
    ]);
    expect(mixed.anthropicBeta).toEqual([ANTHROPIC_EXTENDED_TTL_BETA]);

    const clamped = prepareAnthropicCachedRequest({
      messages: view,
      sealedBoundary: 3,
      tools,
      prefixTtl: '5m',
      tailTtl: '1h',
    });
    expect(clamped.breakpoints.map((breakpoint) => breakpoint.ttl)).toEqual(['5m', '5m', '5m']);
    expect(clamped.requestOptions).toEqual({});
  });

  it('lengthens its own earlier breakpoints to match a caller-placed 1h one later, and rejects a caller order the API refuses', () => {
    const withCallerLong = view.map((message, index) =>
      index === 4
        ? {
            role: 'user',
            content: [{ type: 'text', text: 'now run it again', cache_control: { type: 'ephemeral', ttl: '1h' } }],
          }
        : message,
    );
    const result = prepareAnthropicCachedRequest({ messages: withCallerLong, sealedBoundary: 3, tools });
    expect(result.breakpoints.map((breakpoint) => [breakpoint.site, breakpoint.ttl])).toEqual([
      ['tools', '1h'],
      ['sealed-boundary', '1h'],
      ['tail', '5m'],
    ]);
    expect(result.anthropicBeta).toEqual([ANTHROPIC_EXTENDED_TTL_BETA]);
    const wrongOrder = [
      { role: 'user', content: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'b', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
    ];
    expect(() => prepareAnthropicCachedRequest({ messages: wrongOrder, sealedBoundary: null })).toThrow(
      /1-hour entries first/,
    );
  });

  it('sends messages as { role, content } only and never changes its input', () => {
    const withInternals = deepFreeze(
      view.map((message, index) => ({
        ...message,
        id: `row-${index}`,
        timestamp: 1_700_000_000 + index,
        warpfoldBand: 2,
      })),
    );
    const { request } = prepareAnthropicCachedRequest({
      messages: withInternals,
      sealedBoundary: 3,
      system,
      tools,
      ttl: '1h',
      tailTtl: '5m',
      volatileSystemMarker: '## Your Identity',
    });
    for (const message of request.messages as Array<Record<string, unknown>>)
      expect(Object.keys(message)).toEqual(['role', 'content']);
    expect(JSON.stringify(request)).not.toMatch(
      /sealedBoundary|prefixTtl|tailTtl|volatileSystemMarker|warpfold(Band)|row-0/,
    );
  });

  it('a null marker caches the whole system prompt; a marker at the start leaves no stable head', () => {
    expect(
      prepareAnthropicCachedRequest({ messages: view, sealedBoundary: null, system, volatileSystemMarker: null })
        .request.system,
    ).toEqual([{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }]);
    const atStart = prepareAnthropicCachedRequest({
      messages: view,
      sealedBoundary: null,
      system: '## Your Identity\nall volatile',
    });
    expect(atStart.request.system).toBe('## Your Identity\nall volatile');
    expect(atStart.breakpoints.map((breakpoint) => breakpoint.site)).toEqual(['tail']);
  });

  it('lifts system messages opening the view into `system`, shifting the sealed boundary with them', () => {
    const { request, breakpoints } = prepareAnthropicCachedRequest({
      messages: [{ role: 'system', content: system }, ...view],
      sealedBoundary: 4,
    });
    expect(request.system).toEqual([
      { type: 'text', text: 'You are a careful engineer.\n', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: '## Your Identity\nSession 42, started 10:00.' },
    ]);
    expect((request.messages as unknown[]).length).toBe(view.length);
    expect(
      (request.messages as Array<{ content: Array<{ cache_control?: unknown }> }>)[3].content[0].cache_control,
    ).toEqual({ type: 'ephemeral' });
    expect(breakpoints.map((breakpoint) => breakpoint.site)).toEqual(['system', 'sealed-boundary', 'tail']);
  });

  it('names the bad option', () => {
    expect(() => prepareAnthropicCachedRequest({ messages: view, sealedBoundary: 7 })).toThrow(
      /anthropic: sealedBoundary: expected null or a message index in \[0, 7\), got 7/,
    );
    expect(() =>
      prepareAnthropicCachedRequest({
        messages: [
          { role: 'user', content: 'x' },
          { role: 'system', content: 'late' },
        ],
        sealedBoundary: null,
      }),
    ).toThrow(
      /anthropic: messages\[1\]\.role: expected 'user' or 'assistant', got "system" after the opening system messages/,
    );
    expect(() =>
      prepareAnthropicCachedRequest({
        messages: [{ role: 'system', content: 'x' }, view[0]],
        sealedBoundary: null,
        system: 'y',
      }),
    ).toThrow(/pass the system prompt one way/);
    expect(() =>
      prepareAnthropicCachedRequest({ messages: view, sealedBoundary: null, params: { messages: [] } }),
    ).toThrow(/params\.messages/);
    expect(() => prepareAnthropicCachedRequest({ messages: view, sealedBoundary: null, ttl: '10m' as never })).toThrow(
      /ttl: expected '5m' or '1h'/,
    );
  });

  it('marks the sealed boundary of a real folded Claude Code session, epoch after epoch', () => {
    const history = readTranscript(
      readFileSync(
        new URL('../fixtures/claude-code/57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl', import.meta.url),
        'utf8',
      ),
    ).messages;
    const session = new FoldSession({ pressureCeiling: 8_000 });
    let boundaries = 0;
    for (let end = 20; end <= history.length; end += 7) {
      const outcome = session.prepare(history.slice(0, end));
      const { request, breakpoints } = prepareAnthropicCachedRequest({
        messages: outcome.messages,
        sealedBoundary: outcome.sealedBoundary,
        system: 'You are Claude Code.',
        tools,
      });
      expect(breakpoints.length).toBeLessThanOrEqual(4);
      expect(JSON.stringify(request).split('"cache_control"').length - 1).toBe(breakpoints.length);
      if (outcome.sealedBoundary !== null) {
        boundaries++;
        const marked = (request.messages as Array<{ content: Array<{ cache_control?: unknown }> }>)[
          outcome.sealedBoundary
        ].content;
        expect(marked.some((block) => block.cache_control !== undefined)).toBe(true);
      }
    }
    expect(boundaries).toBeGreaterThan(0);
  });
});

describe('readAnthropicUsage', () => {
  it('reads a Messages API response with cache writes and reads (shape from the prompt-caching docs)', () => {
    const response = {
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 21,
        cache_creation_input_tokens: 188086,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 188086, ephemeral_1h_input_tokens: 0 },
        output_tokens: 393,
        service_tier: 'standard',
      },
    };
    expect(readAnthropicUsage(response)).toEqual({
      inputTokens: 21,
      cacheReadTokens: 0,
      cacheWriteTokens: 188086,
      outputTokens: 393,
      measuredInputTokens: 188107,
    });
  });

  it('reads a streamed message_start event and a bare usage object', () => {
    expect(
      readAnthropicUsage({
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          content: [],
          usage: {
            input_tokens: 4,
            cache_read_input_tokens: 12000,
            cache_creation_input_tokens: 300,
            output_tokens: 1,
          },
        },
      }).measuredInputTokens,
    ).toBe(12304);
    expect(readAnthropicUsage({ input_tokens: 10, output_tokens: 2 })).toEqual({
      inputTokens: 10,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 2,
      measuredInputTokens: 10,
    });
  });

  it('throws a typed error when there is no usage', () => {
    expect(() => readAnthropicUsage({ type: 'error', error: { type: 'overloaded_error' } })).toThrow(
      /anthropic: response.usage: no usage object/,
    );
    expect(() => readAnthropicUsage(null)).toThrow(ProviderInputError);
  });
});
