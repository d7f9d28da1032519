import type { ProviderMessage } from '../../messages/types.ts';
import { ProviderInputError } from '../provider-error.ts';

/** Fields a Chat Completions message may carry; anything else is the host's own and stays home. */
const CHAT_MESSAGE_FIELDS = [
  'role',
  'content',
  'name',
  'tool_calls',
  'tool_call_id',
  'refusal',
  'audio',
  'function_call',
];
const CHAT_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

export interface OpenAIChatRequestOptions {
  /** The view `FoldSession.prepare` returned (OpenAI dialect). */
  readonly messages: readonly ProviderMessage[];
  /** Static instructions; sent first, as a `system` (or `developer`) message. */
  readonly system?: string;
  readonly systemRole?: 'system' | 'developer';
  readonly tools?: readonly Record<string, unknown>[];
  /** `prompt_cache_key`: routes calls of one conversation to the same cache (see `openAIPromptCacheKey`). */
  readonly promptCacheKey?: string;
  /** Message fields to keep beyond the Chat Completions ones (e.g. `reasoning_content` for DeepSeek-style servers). */
  readonly keepFields?: readonly string[];
  /** Other request fields (`model`, `max_completion_tokens`, …). */
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface OpenAIResponsesRequestOptions {
  /** Responses input items (the view in the Responses dialect). */
  readonly input: readonly Record<string, unknown>[];
  readonly instructions?: string;
  readonly tools?: readonly Record<string, unknown>[];
  readonly promptCacheKey?: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

function checkParams(params: Readonly<Record<string, unknown>> | undefined, reserved: readonly string[]): void {
  for (const key of reserved)
    if (params !== undefined && key in params)
      throw new ProviderInputError('openai', `params.${key}`, `pass ${key} through its own option, not in params`);
}

/**
 * A Chat Completions body laid out static first: the instructions, then the tool definitions,
 * then the conversation, so OpenAI's automatic prefix cache sees the same leading tokens on every
 * call. Messages keep only Chat Completions fields; the input is never changed.
 */
export function prepareOpenAIChatRequest(options: OpenAIChatRequestOptions): { request: Record<string, unknown> } {
  if (!Array.isArray(options.messages))
    throw new ProviderInputError('openai', 'messages', 'expected an array of messages');
  checkParams(options.params, ['messages', 'tools', 'prompt_cache_key']);
  const keep = new Set([...CHAT_MESSAGE_FIELDS, ...(options.keepFields ?? [])]);
  const messages = options.messages.map((message, index) => {
    if (message === null || typeof message !== 'object' || !CHAT_ROLES.has(message.role as string))
      throw new ProviderInputError(
        'openai',
        `messages[${index}].role`,
        `expected one of ${[...CHAT_ROLES].join(', ')}, got ${JSON.stringify((message as { role?: unknown } | null)?.role)}`,
      );
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(message)) if (keep.has(key)) out[key] = value;
    return out;
  });
  if (options.system !== undefined) messages.unshift({ role: options.systemRole ?? 'system', content: options.system });
  const request: Record<string, unknown> = { ...options.params };
  if (options.promptCacheKey !== undefined) request.prompt_cache_key = options.promptCacheKey;
  if (options.tools !== undefined && options.tools.length > 0)
    request.tools = options.tools.map((tool) => ({ ...tool }));
  request.messages = messages;
  return { request };
}

/**
 * A Responses API body laid out static first: `instructions`, `tools`, then `input`. The whole
 * input is sent each call (no `previous_response_id`), so the folded view is what the model reads.
 */
export function prepareOpenAIResponsesRequest(options: OpenAIResponsesRequestOptions): {
  request: Record<string, unknown>;
} {
  if (!Array.isArray(options.input))
    throw new ProviderInputError('openai', 'input', 'expected an array of input items');
  checkParams(options.params, ['input', 'instructions', 'tools', 'prompt_cache_key', 'previous_response_id']);
  const request: Record<string, unknown> = { ...options.params };
  if (options.promptCacheKey !== undefined) request.prompt_cache_key = options.promptCacheKey;
  if (options.instructions !== undefined) request.instructions = options.instructions;
  if (options.tools !== undefined && options.tools.length > 0)
    request.tools = options.tools.map((tool) => ({ ...tool }));
  request.input = [...options.input];
  return { request };
}
