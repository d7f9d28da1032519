import { countTokens, renderMessages } from '../../src/tokens/index.ts';
import type { ProviderApi } from '../helpers/scripted-provider/index.ts';

type Item = Record<string, any>;

/** Where each API keeps its history, and what else the provider bills as input (never folded). */
const SHAPES: Record<ProviderApi, { history: string; overhead: readonly string[] }> = {
  anthropic: { history: 'messages', overhead: ['system', 'tools'] },
  'openai-responses': { history: 'input', overhead: ['instructions', 'tools'] },
  'openai-chat': { history: 'messages', overhead: ['tools', 'functions'] },
  gemini: { history: 'contents', overhead: ['systemInstruction', 'system_instruction', 'tools', 'toolConfig'] },
};

export const historyOf = (api: ProviderApi, body: Item): Item[] => {
  const history = body[SHAPES[api].history];
  return Array.isArray(history) ? history : typeof history === 'string' ? [{ role: 'user', content: history }] : [];
};

/** A Responses item in the renderer's terms: a call and its output read as tool messages. */
const renderable = (item: Item): Item => {
  if (item.role !== undefined) return item;
  if (item.type === 'function_call' || item.type === 'custom_tool_call')
    return { role: 'assistant', content: `${item.name} ${item.arguments ?? item.input ?? ''}` };
  if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
    return { role: 'tool', content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) };
  return { role: String(item.type ?? 'item'), content: JSON.stringify(item) };
};

/**
 * The tokens a request bills, by the one counting rule: system and tools as sent (their JSON), plus
 * the rendered history, counted with warpfold/tokens.
 */
export function requestTokens(api: ProviderApi, body: Item): number {
  let total = 0;
  for (const field of SHAPES[api].overhead)
    if (body[field] !== undefined) total += countTokens(JSON.stringify(body[field]));
  return total + countTokens(renderMessages(historyOf(api, body).map(renderable) as never));
}

const withoutCacheControl = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (value !== null && typeof value === 'object') {
    const { cache_control: _ignored, ...rest } = value as Item;
    return Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, withoutCacheControl(inner)]));
  }
  return value;
};

/** System, tools and the other billed fields the proxy must never touch, compared without cache marks. */
export function overheadProblems(api: ProviderApi, sent: Item, forwarded: Item): string[] {
  const problems: string[] = [];
  for (const field of SHAPES[api].overhead)
    if (JSON.stringify(withoutCacheControl(sent[field])) !== JSON.stringify(withoutCacheControl(forwarded[field])))
      problems.push(`${field} changed`);
  return problems;
}

/** Every field but the history and the cache key, which are the proxy's to change. */
export function otherFieldProblems(api: ProviderApi, sent: Item, forwarded: Item): string[] {
  const own = new Set([SHAPES[api].history, ...SHAPES[api].overhead, 'prompt_cache_key']);
  const keys = new Set([...Object.keys(sent), ...Object.keys(forwarded)]);
  return [...keys]
    .filter((key) => !own.has(key) && JSON.stringify(sent[key]) !== JSON.stringify(forwarded[key]))
    .map((key) => `${key} changed`);
}

/** The signed or opaque pieces of a request: thinking blocks, encrypted reasoning, compaction items, signed parts. */
export function signedPieces(api: ProviderApi, body: Item): string[] {
  const pieces: string[] = [];
  for (const message of historyOf(api, body)) {
    if (api === 'anthropic' && Array.isArray(message.content))
      for (const block of message.content)
        if (block.type === 'thinking' || block.type === 'redacted_thinking')
          pieces.push(JSON.stringify(withoutCacheControl(block)));
    if (api === 'openai-responses' && typeof message.encrypted_content === 'string')
      pieces.push(JSON.stringify(message));
    if (api === 'gemini' && Array.isArray(message.parts))
      for (const part of message.parts) if (part.thoughtSignature !== undefined) pieces.push(JSON.stringify(part));
  }
  return pieces;
}

/** Signed pieces the proxy forwarded that the client never sent byte for byte. */
export function signedProblems(api: ProviderApi, sent: Item, forwarded: Item): string[] {
  const original = new Set(signedPieces(api, sent));
  return signedPieces(api, forwarded)
    .filter((piece) => !original.has(piece))
    .map((piece) => `altered signed piece ${piece.slice(0, 120)}`);
}

/** Anthropic breakpoints: `cache_control` on tools, system blocks and message blocks. */
export function breakpointCount(body: Item): number {
  let count = 0;
  const visit = (blocks: unknown) => {
    if (Array.isArray(blocks)) for (const block of blocks) if (block?.cache_control !== undefined) count++;
  };
  visit(body.tools);
  visit(body.system);
  for (const message of body.messages ?? []) visit(message.content);
  return count;
}

/** Tool calls without their result, and results without their call, in the API's own pairing rules. */
export function pairingProblems(api: ProviderApi, body: Item): string[] {
  const history = historyOf(api, body);
  const problems: string[] = [];
  if (api === 'anthropic') {
    history.forEach((message, index) => {
      const blocks = Array.isArray(message.content) ? message.content : [];
      if (message.role === 'assistant') {
        const calls = blocks.filter((block: Item) => block.type === 'tool_use').map((block: Item) => block.id);
        if (calls.length === 0 || index === history.length - 1) return;
        const next = history[index + 1];
        const answered = new Set(
          (Array.isArray(next?.content) ? next.content : [])
            .filter((block: Item) => block.type === 'tool_result')
            .map((block: Item) => block.tool_use_id),
        );
        for (const id of calls)
          if (!answered.has(id)) problems.push(`tool_use ${id} at ${index} has no result after it`);
      }
      if (message.role === 'user') {
        const previous = history[index - 1];
        const called = new Set(
          (Array.isArray(previous?.content) ? previous.content : [])
            .filter((block: Item) => block.type === 'tool_use')
            .map((block: Item) => block.id),
        );
        for (const block of blocks)
          if (block.type === 'tool_result' && !called.has(block.tool_use_id))
            problems.push(`tool_result ${block.tool_use_id} at ${index} has no tool_use before it`);
      }
    });
  } else if (api === 'openai-responses') {
    const called = new Set<string>();
    const answered = new Set<string>();
    for (const item of history) {
      if (item.type === 'function_call' || item.type === 'custom_tool_call') called.add(item.call_id);
      if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
        if (!called.has(item.call_id)) problems.push(`output for ${item.call_id} has no call before it`);
        answered.add(item.call_id);
      }
    }
    for (const id of called) if (!answered.has(id)) problems.push(`call ${id} has no output`);
  } else if (api === 'openai-chat') {
    let open = new Set<string>();
    for (const message of history) {
      if (message.role === 'tool') {
        if (!open.has(message.tool_call_id)) problems.push(`tool message ${message.tool_call_id} answers no open call`);
        open.delete(message.tool_call_id);
        continue;
      }
      if (open.size > 0) problems.push(`calls ${[...open].join(', ')} left without results`);
      open = new Set((message.tool_calls ?? []).map((call: Item) => call.id));
    }
  } else {
    history.forEach((content, index) => {
      const calls = (content.parts ?? []).filter((part: Item) => part.functionCall !== undefined).length;
      if (calls === 0 || index === history.length - 1) return;
      const responses = (history[index + 1]?.parts ?? []).filter(
        (part: Item) => part.functionResponse !== undefined,
      ).length;
      if (responses !== calls) problems.push(`${calls} function calls at ${index} answered by ${responses} responses`);
    });
  }
  return problems;
}

/** How many leading history items two requests share, compared without cache marks. */
export function sharedLeadingItems(api: ProviderApi, earlier: Item, later: Item): number {
  const first = historyOf(api, earlier);
  const second = historyOf(api, later);
  let shared = 0;
  while (
    shared < first.length &&
    shared < second.length &&
    JSON.stringify(withoutCacheControl(first[shared])) === JSON.stringify(withoutCacheControl(second[shared]))
  )
    shared++;
  return shared;
}
