import { compactionSummary, finalAnswer, lastStepSeen, scriptStep } from './script.ts';
import {
  type Exchange,
  jsonReply,
  type ProviderReply,
  type ScriptContext,
  SSE_HEADERS,
  sseEvent,
  stableId,
} from './types.ts';

type Item = Record<string, any>;
interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages: Item[];
  tools?: Item[];
}

/** OpenAI Chat Completions, `POST /v1/chat/completions`, streamed or not (pi's `openai-completions`). */
export function answerChatCompletions(body: ChatRequest, context: ScriptContext): ProviderReply {
  const history = JSON.stringify(body.messages);
  const last = lastStepSeen(history);
  const step = last + 1;
  const tool = body.tools?.find((candidate) =>
    /^(bash|shell|run_shell_command)$/i.test(candidate.function?.name ?? ''),
  );
  let message: Item;
  let exchange: Omit<Exchange, 'usage'>;
  if (tool === undefined || step >= context.steps) {
    const text = tool === undefined ? compactionSummary(last) : finalAnswer(step);
    message = { role: 'assistant', content: text };
    exchange = { kind: tool === undefined ? 'compaction' : 'final', step: last };
  } else {
    message = {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: stableId('call_', step, 'scripted'),
          type: 'function',
          function: { name: tool.function.name, arguments: JSON.stringify({ command: scriptStep(step).command }) },
        },
      ],
    };
    exchange = { kind: 'tool-call', step };
  }
  const cached = context.openaiCache.usage({ tools: body.tools, messages: body.messages });
  const usage = {
    prompt_tokens: cached.prompt_tokens,
    completion_tokens: 24,
    total_tokens: cached.prompt_tokens + 24,
    prompt_tokens_details: { cached_tokens: cached.cached_tokens },
  };
  const reported = { prompt_tokens: cached.prompt_tokens, cached_tokens: cached.cached_tokens };
  const finishReason = message.tool_calls ? 'tool_calls' : 'stop';
  const head = {
    id: stableId('chatcmpl-', step, exchange.kind.replace('-', '')),
    created: 1_796_400_000,
    model: body.model,
  };
  if (body.stream !== true)
    return jsonReply(
      { ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finishReason }], usage },
      { ...exchange, usage: reported },
    );
  const chunk = (delta: Item, finish: string | null) =>
    sseEvent({ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
  const chunks = [chunk({ role: 'assistant', content: '' }, null)];
  if (message.tool_calls)
    chunks.push(
      chunk({ tool_calls: message.tool_calls.map((call: Item, index: number) => ({ index, ...call })) }, null),
    );
  else chunks.push(chunk({ content: message.content }, null));
  chunks.push(
    chunk({}, finishReason),
    sseEvent({ ...head, object: 'chat.completion.chunk', choices: [], usage }),
    sseEvent('[DONE]'),
  );
  return { status: 200, headers: SSE_HEADERS, chunks, exchange: { ...exchange, usage: reported } };
}
