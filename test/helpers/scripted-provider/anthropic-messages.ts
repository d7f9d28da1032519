import {
  CLAUDE_COMPACTION_TEXT,
  compactionSummary,
  finalAnswer,
  lastStepSeen,
  scriptStep,
  type ScriptStep,
} from './script.ts';
import {
  type Exchange,
  jsonReply,
  type ProviderReply,
  type ScriptContext,
  SSE_HEADERS,
  sseEvent,
  stableId,
  stableSignature,
} from './types.ts';

type Block = Record<string, any>;
interface MessagesRequest {
  model?: string;
  stream?: boolean;
  system?: string | Block[];
  tools?: Block[];
  messages: Array<{ role: string; content: string | Block[] }>;
  thinking?: { type?: string };
}

const textOf = (content: string | Block[]) =>
  typeof content === 'string'
    ? content
    : content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n');

/** The shell tool the client advertises (Claude Code: `Bash`; pi: `bash`), and how it takes a command. */
function shellTool(tools: Block[] | undefined): { name: string; input: (step: ScriptStep) => Block } | undefined {
  const tool =
    tools?.find((candidate) => candidate.name === 'Bash') ?? tools?.find((candidate) => /^bash$/i.test(candidate.name));
  if (tool === undefined) return undefined;
  const takesDescription = tool.input_schema?.properties?.description !== undefined;
  return {
    name: tool.name,
    input: (step) => ({ command: step.command, ...(takesDescription ? { description: step.description } : {}) }),
  };
}

/** With `turnSteps`, a turn ends after each block of that many tool calls, when the last message is their result. */
function endsTurn(body: MessagesRequest, last: number, turnSteps: number | undefined): boolean {
  if (turnSteps === undefined || last < 0 || (last + 1) % turnSteps !== 0) return false;
  const content = body.messages.at(-1)?.content;
  return Array.isArray(content) && content.some((block) => block.type === 'tool_result');
}

type Content = { kind: 'text'; text: string } | { kind: 'tool'; name: string; id: string; input: Block };

/** Anthropic Messages, `POST /v1/messages` (streamed or not) and `/v1/messages/count_tokens`. */
export function answerAnthropic(path: string, body: MessagesRequest, context: ScriptContext): ProviderReply {
  if (path.endsWith('/count_tokens')) {
    const usage = context.anthropicCache.estimate(body);
    return jsonReply({ input_tokens: usage }, { kind: 'count-tokens', usage: { input_tokens: usage } });
  }
  const history = JSON.stringify(body.messages);
  const last = lastStepSeen(history);
  const lastUser = [...body.messages].reverse().find((message) => message.role === 'user');
  const compacting = lastUser !== undefined && textOf(lastUser.content).includes(CLAUDE_COMPACTION_TEXT);
  const tool = shellTool(body.tools);
  let content: Content;
  let exchange: Omit<Exchange, 'usage'>;
  if (compacting || tool === undefined) {
    content = { kind: 'text', text: last < 0 ? 'Ready.' : compactionSummary(last) };
    exchange = { kind: compacting ? 'compaction' : 'text', step: last };
  } else if (last + 1 >= context.steps || endsTurn(body, last, context.turnSteps)) {
    content = { kind: 'text', text: finalAnswer(last + 1) };
    exchange = { kind: 'final', step: last };
  } else {
    const step = scriptStep(last + 1);
    content = {
      kind: 'tool',
      name: tool.name,
      id: stableId('toolu_', step.index, 'scripted'),
      input: tool.input(step),
    };
    exchange = { kind: 'tool-call', step: step.index };
  }
  const usage = context.anthropicCache.usage(body);
  const thinking = body.thinking?.type === 'adaptive' || body.thinking?.type === 'enabled';
  const step = exchange.step ?? -1;
  const id = stableId('msg_', step, exchange.kind.replace('-', ''));
  const stopReason = content.kind === 'tool' ? 'tool_use' : 'end_turn';
  const outputTokens = 24;
  const fullUsage = { ...usage, output_tokens: outputTokens };
  if (body.stream !== true) {
    const blocks: Block[] = [
      ...(thinking ? [{ type: 'thinking', thinking: '', signature: stableSignature(step) }] : []),
      content.kind === 'text'
        ? { type: 'text', text: content.text }
        : { type: 'tool_use', id: content.id, name: content.name, input: content.input },
    ];
    return jsonReply(
      {
        id,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: blocks,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: fullUsage,
      },
      { ...exchange, usage },
    );
  }
  const chunks = [
    sseEvent(
      {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
      'message_start',
    ),
  ];
  let index = 0;
  if (thinking) {
    // adaptive thinking with `display: "omitted"`: no text, only the signature the client resends
    chunks.push(
      sseEvent(
        { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
        'content_block_start',
      ),
      sseEvent(
        { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: stableSignature(step) } },
        'content_block_delta',
      ),
      sseEvent({ type: 'content_block_stop', index }, 'content_block_stop'),
    );
    index++;
  }
  if (content.kind === 'text')
    chunks.push(
      sseEvent(
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        'content_block_start',
      ),
      sseEvent(
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: content.text } },
        'content_block_delta',
      ),
    );
  else
    chunks.push(
      sseEvent(
        {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: content.id, name: content.name, input: {} },
        },
        'content_block_start',
      ),
      sseEvent(
        {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(content.input) },
        },
        'content_block_delta',
      ),
    );
  chunks.push(
    sseEvent({ type: 'content_block_stop', index }, 'content_block_stop'),
    sseEvent(
      { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: fullUsage },
      'message_delta',
    ),
    sseEvent({ type: 'message_stop' }, 'message_stop'),
  );
  return { status: 200, headers: SSE_HEADERS, chunks, exchange: { ...exchange, usage } };
}
