// Request bodies and usage parsing for the two providers the live run talks to, in their own
// wire shapes: Anthropic Messages (cache_control breakpoint on the last block) and OpenAI Chat
// Completions (automatic prefix caching).
import type { ToolDefinition } from '../../test/helpers/workloads/outage-script.ts';
import type { BaselineMessage } from '../../src/baselines/types.ts';

export type LiveProvider = 'anthropic' | 'openai';

export interface ProviderUsage {
  /** Input tokens billed at the plain price. */
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** All input tokens the provider counted: what a host passes back as measuredInputTokens. */
  readonly totalInputTokens: number;
  readonly outputTokens: number;
}

export interface ProviderRequest {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

type Block = Record<string, unknown>;

/** The same messages with an ephemeral cache breakpoint on the very last content block. */
function withTrailingBreakpoint(messages: readonly BaselineMessage[]): BaselineMessage[] {
  return messages.map((message, index) => {
    if (index !== messages.length - 1) return message;
    const blocks: Block[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : [...((message.content as Block[]) ?? [])];
    if (blocks.length === 0) return message;
    blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: { type: 'ephemeral' } };
    return { ...message, content: blocks };
  });
}

export function buildRequest(
  provider: LiveProvider,
  input: {
    apiKey: string;
    model: string;
    system: string | null;
    tools: readonly ToolDefinition[];
    messages: readonly BaselineMessage[];
    cacheKey: string;
  },
): ProviderRequest {
  if (provider === 'anthropic') {
    return {
      path: '/v1/messages',
      headers: { 'content-type': 'application/json', 'x-api-key': input.apiKey, 'anthropic-version': '2023-06-01' },
      body: {
        model: input.model,
        max_tokens: 16,
        ...(input.system ? { system: input.system } : {}),
        tools: input.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.parameters,
        })),
        messages: withTrailingBreakpoint(input.messages),
      },
    };
  }
  return {
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${input.apiKey}` },
    body: {
      model: input.model,
      max_completion_tokens: 16,
      prompt_cache_key: input.cacheKey,
      tools: input.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      })),
      messages: input.messages,
    },
  };
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The provider's cache telemetry from a response body, or an error naming what was missing. */
export function parseUsage(provider: LiveProvider, response: unknown): ProviderUsage {
  const usage = (response as { usage?: Record<string, unknown> } | null)?.usage;
  if (!usage) throw new Error(`${provider} response has no usage: ${JSON.stringify(response).slice(0, 300)}`);
  if (provider === 'anthropic') {
    const inputTokens = count(usage.input_tokens);
    const cacheReadTokens = count(usage.cache_read_input_tokens);
    const cacheWriteTokens = count(usage.cache_creation_input_tokens);
    return {
      inputTokens,
      cacheReadTokens,
      cacheWriteTokens,
      totalInputTokens: inputTokens + cacheReadTokens + cacheWriteTokens,
      outputTokens: count(usage.output_tokens),
    };
  }
  const promptTokens = count(usage.prompt_tokens);
  const cacheReadTokens = count((usage.prompt_tokens_details as Record<string, unknown> | undefined)?.cached_tokens);
  return {
    inputTokens: promptTokens - cacheReadTokens,
    cacheReadTokens,
    cacheWriteTokens: 0,
    totalInputTokens: promptTokens,
    outputTokens: count(usage.completion_tokens),
  };
}
