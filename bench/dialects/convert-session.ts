// OpenAI chat sessions of the corpus as the other two dialects a TypeScript agent sends, and the
// views back as chat messages, so one scorer measures all three. Conversions are remembered per
// chat message object: a host keeps its converted items, and the session sees the same objects.
import type { BaselineMessage } from '../../src/baselines/types.ts';

export type ConvertedDialect = 'openai-responses' | 'ai-sdk';

type Item = Record<string, unknown>;
type ToolCall = { id?: string; function?: { name?: string; arguments?: string } };

const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part: Item) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
  return '';
};

const callsOf = (message: BaselineMessage): ToolCall[] =>
  Array.isArray(message.tool_calls) ? (message.tool_calls as ToolCall[]) : [];

function parsedInput(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** One chat message as Responses items: an assistant turn is reasoning, message and call items. */
function toResponsesItems(message: BaselineMessage, index: number): Item[] {
  const text = textOf(message.content);
  if (message.role === 'tool')
    return [{ type: 'function_call_output', call_id: String(message.tool_call_id), output: text }];
  if (message.role !== 'assistant')
    return [
      { type: 'message', role: message.role === 'developer' ? 'developer' : String(message.role), content: text },
    ];
  const items: Item[] = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content)
    items.push({
      type: 'reasoning',
      id: `rs_${index}`,
      summary: [{ type: 'summary_text', text: message.reasoning_content }],
    });
  const calls = callsOf(message);
  if (text || !calls.length)
    items.push({
      type: 'message',
      id: `msg_${index}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    });
  calls.forEach((call, n) =>
    items.push({
      type: 'function_call',
      id: `fc_${index}_${n}`,
      call_id: String(call.id),
      name: String(call.function?.name),
      arguments: String(call.function?.arguments ?? '{}'),
      status: 'completed',
    }),
  );
  return items;
}

/** One chat message as an AI SDK message (tool results are grouped by the caller). */
function toModelMessage(message: BaselineMessage): Item {
  const text = textOf(message.content);
  if (message.role !== 'assistant')
    return { role: message.role === 'developer' ? 'system' : String(message.role), content: text };
  const parts: Item[] = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content)
    parts.push({ type: 'reasoning', text: message.reasoning_content });
  if (text) parts.push({ type: 'text', text });
  for (const call of callsOf(message))
    parts.push({
      type: 'tool-call',
      toolCallId: String(call.id),
      toolName: String(call.function?.name),
      input: parsedInput(call.function?.arguments),
    });
  return { role: 'assistant', content: parts.length ? parts : '' };
}

/** Converts growing chat histories into one dialect, reusing the items of messages it has seen. */
export class SessionConverter {
  private readonly items = new WeakMap<BaselineMessage, Item[]>();
  /** AI SDK tool messages by the first chat tool message of their group, with the group's length. */
  private readonly toolGroups = new WeakMap<BaselineMessage, { length: number; message: Item }>();

  constructor(readonly dialect: ConvertedDialect) {}

  toDialect(history: readonly BaselineMessage[]): Item[] {
    return this.dialect === 'openai-responses' ? this.toResponses(history) : this.toModelMessages(history);
  }

  private toResponses(history: readonly BaselineMessage[]): Item[] {
    const out: Item[] = [];
    history.forEach((message, index) => {
      let items = this.items.get(message);
      if (!items) this.items.set(message, (items = toResponsesItems(message, index)));
      out.push(...items);
    });
    return out;
  }

  private toModelMessages(history: readonly BaselineMessage[]): Item[] {
    const out: Item[] = [];
    const names = new Map<string, string>();
    for (let index = 0; index < history.length; index++) {
      const message = history[index];
      if (message.role !== 'tool') {
        for (const call of callsOf(message)) names.set(String(call.id), String(call.function?.name));
        let items = this.items.get(message);
        if (!items) this.items.set(message, (items = [toModelMessage(message)]));
        out.push(...items);
        continue;
      }
      // the AI SDK answers a step in one tool message: consecutive chat tool messages form one group
      let end = index;
      while (end < history.length && history[end].role === 'tool') end++;
      const cached = this.toolGroups.get(message);
      let grouped = cached?.length === end - index ? cached.message : undefined;
      if (!grouped) {
        grouped = {
          role: 'tool',
          content: history.slice(index, end).map((result) => ({
            type: 'tool-result',
            toolCallId: String(result.tool_call_id),
            toolName: names.get(String(result.tool_call_id)) ?? 'tool',
            output: { type: 'text', value: textOf(result.content) },
          })),
        };
        this.toolGroups.set(message, { length: end - index, message: grouped });
      }
      out.push(grouped);
      index = end - 1;
    }
    return out;
  }

  /** A view in this dialect back as chat messages, for the scorer's rendering. */
  toChat(view: readonly Item[]): BaselineMessage[] {
    return this.dialect === 'openai-responses' ? responsesToChat(view) : modelMessagesToChat(view);
  }
}

function responsesToChat(view: readonly Item[]): BaselineMessage[] {
  const out: BaselineMessage[] = [];
  let step: { role: string; content: string | null; tool_calls?: unknown[]; reasoning_content?: string } | undefined;
  let reasoning: string | undefined;
  const open = () => {
    step = { role: 'assistant', content: null, ...(reasoning ? { reasoning_content: reasoning } : {}) };
    reasoning = undefined;
    out.push(step as BaselineMessage);
    return step;
  };
  for (const item of view) {
    const type = item.type ?? 'message';
    if (type === 'reasoning') {
      step = undefined;
      reasoning = (item.summary as Item[]).map((part) => String(part.text)).join('\n');
    } else if (type === 'message' && item.role === 'assistant' && typeof item.content === 'string') {
      // warpfold's own acknowledgement (converted items carry output_text parts): a message of its own
      step = undefined;
      out.push({ role: 'assistant', content: item.content });
    } else if (type === 'message' && item.role === 'assistant') {
      // a second assistant message starts a new chat message
      const target = step && step.content === null && !step.tool_calls ? step : open();
      target.content = textOf(item.content);
    } else if (type === 'function_call') {
      const target = step ?? open();
      (target.tool_calls ??= []).push({
        id: item.call_id,
        type: 'function',
        function: { name: item.name, arguments: item.arguments },
      });
    } else {
      step = undefined;
      if (type === 'function_call_output')
        out.push({ role: 'tool', tool_call_id: item.call_id, content: textOf(item.output) });
      else out.push({ role: String(item.role), content: textOf(item.content) });
    }
  }
  return out;
}

function modelMessagesToChat(view: readonly Item[]): BaselineMessage[] {
  const out: BaselineMessage[] = [];
  for (const message of view) {
    if (message.role === 'tool') {
      for (const part of message.content as Item[]) {
        const output = part.output as Item;
        out.push({
          role: 'tool',
          tool_call_id: part.toolCallId,
          content: typeof output.value === 'string' ? output.value : JSON.stringify(output.value),
        });
      }
    } else if (message.role === 'assistant' && Array.isArray(message.content)) {
      const parts = message.content as Item[];
      const text = parts
        .filter((part) => part.type === 'text')
        .map((part) => String(part.text))
        .join('\n');
      const reasoning = parts
        .filter((part) => part.type === 'reasoning')
        .map((part) => String(part.text))
        .join('\n');
      const calls = parts
        .filter((part) => part.type === 'tool-call')
        .map((part) => ({
          id: part.toolCallId,
          type: 'function',
          function: {
            name: part.toolName,
            arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input),
          },
        }));
      out.push({
        role: 'assistant',
        content: text || null,
        ...(calls.length ? { tool_calls: calls } : {}),
        ...(reasoning ? { reasoning_content: reasoning } : {}),
      });
    } else out.push({ role: String(message.role), content: textOf(message.content) });
  }
  return out;
}
