import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import {
  openAIPromptCacheKey,
  prepareOpenAIChatRequest,
  prepareOpenAIResponsesRequest,
  readOpenAIUsage,
} from '../../src/providers/openai/index.ts';
import { startProviderServer, type ProviderServer } from '../helpers/provider-server.ts';
import { ProviderInputError } from '../../src/index.ts';

const tools = [
  {
    type: 'function',
    function: {
      name: 'bash',
      description: 'Run a command',
      parameters: { type: 'object', properties: { command: { type: 'string' } } },
    },
  },
];
const view = [
  { role: 'user', content: 'fix the test', id: 'row-1' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"npm test"}' } }],
    reasoning_content: 'think',
    timestamp: 5,
  },
  { role: 'tool', tool_call_id: 'c1', content: 'ok' },
];

// Recorded shapes from OpenAI's API reference (Chat Completions and Responses usage objects).
const chatCompletion = {
  id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
  object: 'chat.completion',
  created: 1741570283,
  model: 'gpt-4o-2024-08-06',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Done.', refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
  usage: {
    prompt_tokens: 2006,
    completion_tokens: 300,
    total_tokens: 2306,
    prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  },
  service_tier: 'default',
  system_fingerprint: 'fp_fc9f1d7035',
};
const responsesResponse = {
  id: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
  object: 'response',
  created_at: 1741476542,
  status: 'completed',
  model: 'gpt-4.1-2025-04-14',
  output: [
    {
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
    },
  ],
  usage: {
    input_tokens: 36,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 87,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 123,
  },
};

describe('openAIPromptCacheKey', () => {
  it('is stable, distinguishes part boundaries and stays within 64 characters', () => {
    const key = openAIPromptCacheKey(['tenant-7', 'agent', 'session-42']);
    expect(key).toBe(openAIPromptCacheKey(['tenant-7', 'agent', 'session-42']));
    expect(key).toMatch(/^warpfold-[0-9a-z]{14}$/);
    expect(openAIPromptCacheKey(['ab', 'c'])).not.toBe(openAIPromptCacheKey(['a', 'bc']));
    expect(openAIPromptCacheKey('x'.repeat(10_000)).length).toBeLessThanOrEqual(64);
    expect(() => openAIPromptCacheKey([])).toThrow(ProviderInputError);
  });
});

describe('prepareOpenAIChatRequest', () => {
  it('lays the request out static first and keeps only Chat Completions message fields', () => {
    const { request } = prepareOpenAIChatRequest({
      messages: view,
      system: 'Be careful.',
      tools,
      promptCacheKey: 'warpfold-k',
      params: { model: 'gpt-4.1' },
    });
    expect(request).toEqual({
      model: 'gpt-4.1',
      prompt_cache_key: 'warpfold-k',
      tools,
      messages: [
        { role: 'system', content: 'Be careful.' },
        { role: 'user', content: 'fix the test' },
        { role: 'assistant', content: null, tool_calls: view[1].tool_calls },
        { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      ],
    });
    expect(Object.keys(request)).toEqual(['model', 'prompt_cache_key', 'tools', 'messages']);
    expect(
      prepareOpenAIChatRequest({ messages: view, keepFields: ['reasoning_content'] }).request.messages,
    ).toContainEqual({ role: 'assistant', content: null, tool_calls: view[1].tool_calls, reasoning_content: 'think' });
  });

  it('names a bad role or a reserved param', () => {
    expect(() => prepareOpenAIChatRequest({ messages: [{ role: 'model', parts: [] }] })).toThrow(
      /openai: messages\[0\]\.role/,
    );
    expect(() => prepareOpenAIChatRequest({ messages: view, params: { messages: [] } })).toThrow(/params\.messages/);
  });
});

describe('prepareOpenAIResponsesRequest', () => {
  it('puts instructions and tools before the input and refuses previous_response_id', () => {
    const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }];
    const { request } = prepareOpenAIResponsesRequest({
      input,
      instructions: 'Be careful.',
      tools: [{ type: 'function', name: 'bash', parameters: {} }],
      promptCacheKey: 'k',
      params: { model: 'gpt-4.1', store: false },
    });
    expect(Object.keys(request)).toEqual(['model', 'store', 'prompt_cache_key', 'instructions', 'tools', 'input']);
    expect(request.input).toEqual(input);
    expect(() => prepareOpenAIResponsesRequest({ input, params: { previous_response_id: 'resp_1' } })).toThrow(
      /params\.previous_response_id/,
    );
  });
});

describe('readOpenAIUsage', () => {
  it('reads Chat Completions and Responses usage, cached tokens included in the prompt', () => {
    expect(readOpenAIUsage(chatCompletion)).toEqual({
      inputTokens: 86,
      cacheReadTokens: 1920,
      cacheWriteTokens: 0,
      outputTokens: 300,
      measuredInputTokens: 2006,
    });
    expect(readOpenAIUsage(responsesResponse)).toEqual({
      inputTokens: 36,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 87,
      measuredInputTokens: 36,
    });
    expect(readOpenAIUsage({ type: 'response.completed', response: responsesResponse }).outputTokens).toBe(87);
  });
  it('throws a typed error without usage', () => {
    expect(() => readOpenAIUsage({ id: 'chatcmpl-1', choices: [] })).toThrow(/openai: response.usage: no usage object/);
  });
});

describe('the real openai client sends the prepared request unchanged', () => {
  let server: ProviderServer;
  beforeAll(async () => {
    server = await startProviderServer((request) =>
      request.url.endsWith('/responses') ? responsesResponse : chatCompletion,
    );
  });
  afterAll(() => server.close());

  it('Chat Completions: the wire body is the prepared request; usage reads back from the client’s result', async () => {
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const session = new FoldSession({ pressureCeiling: 16_000 });
    const outcome = session.prepare(view);
    const { request } = prepareOpenAIChatRequest({
      messages: outcome.messages,
      system: 'Be careful.',
      tools,
      promptCacheKey: openAIPromptCacheKey(['s-1']),
      params: { model: 'gpt-4.1' },
    });
    const completion = await client.chat.completions.create(
      request as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
    );
    expect(server.requests.at(-1)?.url).toBe('/v1/chat/completions');
    expect(server.requests.at(-1)?.body).toEqual(request);
    expect(readOpenAIUsage(completion).measuredInputTokens).toBe(2006);
  });

  it('Responses: the wire body is the prepared request', async () => {
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const { request } = prepareOpenAIResponsesRequest({
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      instructions: 'Be careful.',
      promptCacheKey: 'k',
      params: { model: 'gpt-4.1' },
    });
    const response = await client.responses.create(
      request as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming,
    );
    expect(server.requests.at(-1)?.body).toEqual(request);
    expect(readOpenAIUsage(response)).toMatchObject({ measuredInputTokens: 36, outputTokens: 87 });
  });
});
