/**
 * Independent checks on a view `prepare()` returned: provider pairing per dialect, allowed keys,
 * fold-block and closet parsing, the text a reader sees, and the view's size under the same
 * plain rendering the session plans with (`src/messages/plain-text.ts`, read through the
 * engine's own transcript reader so the two can never disagree on what a message "is").
 */
import { Transcript, type TokenCounter } from '../../src/messages/index.ts';
import {
  callsOf,
  isAssistant,
  isResponsesStepItem,
  proseOf,
  resultsOf,
  type Dialect,
  type ProviderMessage,
} from './dialects.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// ── input safety ─────────────────────────────────────────────────────────────────────────

/** Freezes a value and everything under it; a write in strict-mode code then throws. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}

// ── text ─────────────────────────────────────────────────────────────────────────────────

/** Every string leaf under `value`, plus the leaves of strings that parse as JSON objects (OpenAI arguments). */
export function stringLeaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    out.push(value);
    if (value.startsWith('{') || value.startsWith('[')) {
      try {
        stringLeaves(JSON.parse(value), out);
      } catch {
        // not JSON: the string itself is enough
      }
    }
  } else if (Array.isArray(value)) for (const item of value) stringLeaves(item, out);
  else if (isRecord(value)) for (const child of Object.values(value)) stringLeaves(child, out);
  return out;
}

export const textOf = (value: unknown): string => stringLeaves(value).join('\n');

/** Text of a warpfold synthetic message (string content, text blocks or text parts). */
export function syntheticText(message: ProviderMessage): string | undefined {
  const text = proseOf(message);
  return text.startsWith('[warpfold') ? text : undefined;
}

// ── size ─────────────────────────────────────────────────────────────────────────────────

/** Tokens of a view: the sum over messages of the counter applied to the session's plain rendering. */
export function viewTokens(messages: readonly ProviderMessage[], countTokens: TokenCounter): number {
  const transcript = new Transcript(countTokens);
  transcript.sync(messages);
  return transcript.tokensBetween(0, transcript.length);
}

/** Per-message tokens of a history under the session's plain rendering. */
export function messageTokens(messages: readonly ProviderMessage[], countTokens: TokenCounter): number[] {
  const transcript = new Transcript(countTokens);
  transcript.sync(messages);
  return [...transcript.tokens];
}

// ── fold blocks and the closet ───────────────────────────────────────────────────────────

export interface FoldBlock {
  /** Raw indices [start, end) the block folds. */
  readonly start: number;
  readonly end: number;
  readonly rawTokens: number;
  readonly text: string;
  readonly viewIndex: number;
}

/** `[warpfold fold · messages 3–28 · 1,012 tokens folded]` (1-based, inclusive), tolerant of small wording changes. */
const FOLD_HEADER = /^\[warpfold fold · messages (\d+)[–-](\d+) · ([\d,]+) tokens[^\]]*\]/;

export function foldBlocks(view: readonly ProviderMessage[]): FoldBlock[] {
  const blocks: FoldBlock[] = [];
  view.forEach((message, viewIndex) => {
    const text = syntheticText(message);
    const match = text ? FOLD_HEADER.exec(text) : null;
    if (text && match)
      blocks.push({
        start: Number(match[1]) - 1,
        end: Number(match[2]),
        rawTokens: Number(match[3].replace(/,/g, '')),
        text,
        viewIndex,
      });
  });
  return blocks;
}

/** Identifiers listed on `⌖` closet lines of a synthetic text, without their `⟦label⟧`. */
export function closetValues(text: string): string[] {
  const values: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('⌖ ')) continue;
    for (const item of line.slice(2).split(' · ')) values.push(item.replace(/ ⟦[^⟧]*⟧$/, ''));
  }
  return values;
}

/** A `▸ N … tool calls …` line that accounts for calls whose own skeleton line was left out, with its `name ×k` counts. */
const OMITTED_CALLS = /^▸ (\d+) (?:earlier )?tool calls\b[^:]*:?(.*)$/;

/**
 * Problems with the skeleton of one fold block: each tool call of the raw messages it folds must
 * appear as one `▸ name` line, in order, or be counted on the block's omitted-calls line
 * (`▸ N tool calls not shown: name ×k, …`), whose counts must match the calls left out.
 */
export function skeletonProblems(block: FoldBlock, history: readonly ProviderMessage[], dialect: Dialect): string[] {
  const calls = history.slice(block.start, block.end).flatMap((message) => callsOf(message, dialect));
  const where = `fold of raw messages [${block.start}, ${block.end})`;
  const problems: string[] = [];
  let omitted = 0;
  let omittedNames: Map<string, number> | undefined;
  const shown: string[] = [];
  for (const line of block.text.split('\n')) {
    if (!line.startsWith('▸ ')) continue;
    const count = OMITTED_CALLS.exec(line);
    if (count) {
      omitted += Number(count[1]);
      omittedNames ??= new Map();
      for (const item of count[2].split(',')) {
        const named = /^\s*(.+?) ×(\d+)\s*$/.exec(item);
        if (named) omittedNames.set(named[1], (omittedNames.get(named[1]) ?? 0) + Number(named[2]));
      }
    } else shown.push(line);
  }
  // shown lines must be a subsequence of the calls, by name
  const left = new Map<string, number>();
  let next = 0;
  for (const line of shown) {
    let found = -1;
    for (let i = next; i < calls.length; i++) {
      const prefix = `▸ ${calls[i].name}`;
      if (line.startsWith(prefix) && !/\w/.test(line.charAt(prefix.length))) {
        found = i;
        break;
      }
    }
    if (found < 0) {
      problems.push(`${where}: skeleton line ${JSON.stringify(line.slice(0, 100))} matches no later tool call`);
      continue;
    }
    for (let i = next; i < found; i++) left.set(calls[i].name, (left.get(calls[i].name) ?? 0) + 1);
    next = found + 1;
  }
  for (let i = next; i < calls.length; i++) left.set(calls[i].name, (left.get(calls[i].name) ?? 0) + 1);
  if (shown.length + omitted !== calls.length)
    problems.push(
      `${where}: ${calls.length} tool calls but ${shown.length} skeleton lines + ${omitted} counted as omitted`,
    );
  else if (omittedNames?.size) {
    const expected = JSON.stringify([...left].sort());
    const actual = JSON.stringify([...omittedNames].sort());
    if (expected !== actual)
      problems.push(`${where}: omitted-calls line counts ${actual}, but the calls without a line are ${expected}`);
  }
  return problems;
}

// ── provider validity ────────────────────────────────────────────────────────────────────

const OPENAI_MESSAGE_KEYS = new Set(['role', 'content', 'tool_calls', 'tool_call_id', 'name', 'reasoning_content']);
const OPENAI_CALL_KEYS = new Set(['id', 'type', 'function']);
const OPENAI_FUNCTION_KEYS = new Set(['name', 'arguments']);
const ANTHROPIC_MESSAGE_KEYS = new Set(['role', 'content']);
const ANTHROPIC_BLOCK_KEYS: Record<string, Set<string>> = {
  text: new Set(['type', 'text', 'cache_control']),
  thinking: new Set(['type', 'thinking', 'signature']),
  redacted_thinking: new Set(['type', 'data']),
  tool_use: new Set(['type', 'id', 'name', 'input', 'cache_control']),
  tool_result: new Set(['type', 'tool_use_id', 'content', 'is_error', 'cache_control']),
  image: new Set(['type', 'source', 'cache_control']),
  document: new Set(['type', 'source', 'title', 'context', 'citations', 'cache_control']),
  search_result: new Set(['type', 'source', 'title', 'content', 'citations', 'cache_control']),
};
const GEMINI_MESSAGE_KEYS = new Set(['role', 'parts']);
const GEMINI_PART_KEYS = new Set([
  'text',
  'thought',
  'thoughtSignature',
  'functionCall',
  'functionResponse',
  'inlineData',
  'fileData',
  'executableCode',
  'codeExecutionResult',
]);
// Responses input items, from the openai package's ResponseInputItem types
const RESPONSES_ITEM_KEYS: Record<string, Set<string>> = {
  message: new Set(['type', 'id', 'role', 'content', 'status', 'phase']),
  reasoning: new Set(['type', 'id', 'summary', 'content', 'encrypted_content', 'status']),
  function_call: new Set(['type', 'id', 'call_id', 'name', 'arguments', 'status', 'caller', 'namespace']),
  function_call_output: new Set(['type', 'id', 'call_id', 'output', 'status', 'caller']),
  custom_tool_call: new Set(['type', 'id', 'call_id', 'name', 'input', 'caller', 'namespace']),
  custom_tool_call_output: new Set(['type', 'id', 'call_id', 'output', 'caller']),
  shell_call: new Set(['type', 'id', 'call_id', 'action', 'status', 'caller', 'environment']),
  shell_call_output: new Set(['type', 'id', 'call_id', 'output', 'status', 'caller', 'max_output_length']),
  apply_patch_call: new Set(['type', 'id', 'call_id', 'operation', 'status', 'caller']),
  apply_patch_call_output: new Set(['type', 'id', 'call_id', 'status', 'output', 'caller']),
};
const RESPONSES_PART_KEYS: Record<string, Set<string>> = {
  input_text: new Set(['type', 'text', 'prompt_cache_breakpoint']),
  output_text: new Set(['type', 'text', 'annotations', 'logprobs']),
  refusal: new Set(['type', 'refusal']),
};
const RESPONSES_ROLES = new Set(['system', 'developer', 'user', 'assistant']);
// AI SDK ModelMessage, from the ai package's types
const MODEL_MESSAGE_KEYS = new Set(['role', 'content', 'providerOptions']);
const MODEL_PART_KEYS: Record<string, Set<string>> = {
  text: new Set(['type', 'text', 'providerOptions']),
  reasoning: new Set(['type', 'text', 'providerOptions']),
  'tool-call': new Set(['type', 'toolCallId', 'toolName', 'input', 'providerOptions', 'providerExecuted']),
  'tool-result': new Set(['type', 'toolCallId', 'toolName', 'output', 'providerOptions']),
  image: new Set(['type', 'image', 'mediaType', 'providerOptions']),
  file: new Set(['type', 'data', 'filename', 'mediaType', 'providerOptions']),
};
const MODEL_OUTPUT_TYPES = new Set(['text', 'json', 'error-text', 'error-json', 'content', 'execution-denied']);
const ROLES: Record<Dialect, Set<string>> = {
  openai: new Set(['system', 'developer', 'user', 'assistant', 'tool']),
  anthropic: new Set(['system', 'user', 'assistant']),
  gemini: new Set(['system', 'user', 'model']),
  'openai-responses': RESPONSES_ROLES,
  'ai-sdk': new Set(['system', 'user', 'assistant', 'tool']),
};

/** Leaked keys of one Responses item (an input message without `type` included). */
function responsesItemProblems(item: ProviderMessage, report: (what: string) => void): void {
  const type = item.type === undefined ? 'message' : String(item.type);
  const allowed = RESPONSES_ITEM_KEYS[type];
  if (!allowed) return report(`unexpected item type ${JSON.stringify(type)}`);
  for (const key of extraKeys(item, allowed)) report(`unexpected ${type} key ${key}`);
  if (type !== 'message') return;
  if (!RESPONSES_ROLES.has(String(item.role))) report(`role ${JSON.stringify(item.role)} on a message item`);
  if (Array.isArray(item.content))
    for (const part of item.content) {
      const partAllowed = RESPONSES_PART_KEYS[String((part as Record<string, unknown>)?.type)];
      if (!partAllowed) report(`unexpected content part ${JSON.stringify((part as Record<string, unknown>)?.type)}`);
      else for (const key of extraKeys(part, partAllowed)) report(`unexpected content part key ${key}`);
    }
  else if (typeof item.content !== 'string') report('content is neither a string nor parts');
}

/** Leaked keys of one AI SDK message. */
function modelMessageProblems(message: ProviderMessage, report: (what: string) => void): void {
  for (const key of extraKeys(message, MODEL_MESSAGE_KEYS)) report(`unexpected key ${key}`);
  if (typeof message.content === 'string') return;
  if (!Array.isArray(message.content)) return report('content is neither a string nor parts');
  for (const part of message.content as Array<Record<string, unknown>>) {
    const allowed = MODEL_PART_KEYS[String(part?.type)];
    if (!allowed) report(`unexpected part type ${JSON.stringify(part?.type)}`);
    else for (const key of extraKeys(part, allowed)) report(`unexpected ${String(part.type)} key ${key}`);
    if (part?.type === 'tool-result' && !MODEL_OUTPUT_TYPES.has(String((part.output as Record<string, unknown>)?.type)))
      report(`tool-result output type ${JSON.stringify((part.output as Record<string, unknown>)?.type)}`);
  }
}

function extraKeys(value: unknown, allowed: Set<string>): string[] {
  return isRecord(value) ? Object.keys(value).filter((key) => !allowed.has(key)) : ['<not an object>'];
}

/** Keys and roles an output message may carry in its dialect; anything else is a leaked field. */
export function keyProblems(view: readonly ProviderMessage[], dialect: Dialect): string[] {
  const problems: string[] = [];
  view.forEach((message, i) => {
    const report = (what: string) => problems.push(`view[${i}]: ${what}`);
    if (dialect === 'openai-responses') return responsesItemProblems(message, report);
    if (!ROLES[dialect].has(String(message.role))) report(`role ${JSON.stringify(message.role)} in a ${dialect} view`);
    if (dialect === 'ai-sdk') modelMessageProblems(message, report);
    else if (dialect === 'openai') {
      for (const key of extraKeys(message, OPENAI_MESSAGE_KEYS)) report(`unexpected key ${key}`);
      if (Array.isArray(message.tool_calls))
        for (const call of message.tool_calls) {
          for (const key of extraKeys(call, OPENAI_CALL_KEYS)) report(`unexpected tool_calls key ${key}`);
          for (const key of extraKeys((call as Record<string, unknown>).function, OPENAI_FUNCTION_KEYS))
            report(`unexpected function key ${key}`);
        }
    } else if (dialect === 'anthropic') {
      for (const key of extraKeys(message, ANTHROPIC_MESSAGE_KEYS)) report(`unexpected key ${key}`);
      if (Array.isArray(message.content))
        for (const block of message.content) {
          const allowed = ANTHROPIC_BLOCK_KEYS[String((block as Record<string, unknown>)?.type)];
          if (!allowed) report(`unexpected block type ${JSON.stringify((block as Record<string, unknown>)?.type)}`);
          else for (const key of extraKeys(block, allowed)) report(`unexpected block key ${key}`);
        }
      else if (typeof message.content !== 'string') report('content is neither a string nor blocks');
    } else {
      for (const key of extraKeys(message, GEMINI_MESSAGE_KEYS)) report(`unexpected key ${key}`);
      if (!Array.isArray(message.parts)) report('parts is not an array');
      else
        for (const part of message.parts)
          for (const key of extraKeys(part, GEMINI_PART_KEYS)) report(`unexpected part key ${key}`);
    }
  });
  return problems;
}

/**
 * Problems with tool call / result pairing: every result answers a call of the message right
 * before its block, every call is answered before the next non-result message, except calls of
 * a message that only results (or nothing) follow: a pending step at the end of the view.
 */
export function pairingProblems(view: readonly ProviderMessage[], dialect: Dialect): string[] {
  if (dialect === 'openai-responses') return responsesPairingProblems(view);
  const problems: string[] = [];
  let open: Array<{ id: string | undefined; name: string }> = [];
  let openAt = -1;
  const closeOne = (result: { id: string | undefined; name: string }, i: number) => {
    const byId = result.id !== undefined && result.id !== '' ? open.findIndex((call) => call.id === result.id) : -1;
    // Gemini may pair by name when ids are absent
    const byName =
      byId < 0 && dialect === 'gemini' && (result.id === undefined || result.id === '')
        ? open.findIndex((call) => call.name === result.name)
        : -1;
    const at = byId >= 0 ? byId : byName;
    if (at < 0)
      problems.push(
        `view[${i}]: result ${JSON.stringify(result.id ?? result.name)} answers no call of view[${openAt}]`,
      );
    else open.splice(at, 1);
  };
  view.forEach((message, i) => {
    const results = resultsOf(message, dialect);
    const calls = callsOf(message, dialect);
    if (results.length) {
      if (openAt < 0) problems.push(`view[${i}]: tool result with no call before it`);
      for (const result of results) closeOne(result, i);
      const onlyResults = dialect === 'openai' ? true : proseOf(message).trim() === '';
      if (!onlyResults) problems.push(`view[${i}]: results mixed with text`);
      if (dialect === 'ai-sdk' && message.role !== 'tool')
        problems.push(`view[${i}]: tool results on a ${String(message.role)} message`);
      if (dialect !== 'openai') {
        // Anthropic and Gemini answer a whole step in the one message after it
        if (open.length)
          problems.push(`view[${i}]: ${open.length} call(s) of view[${openAt}] left unanswered by its result message`);
        open = [];
        openAt = -1;
      }
      return;
    }
    if (open.length) problems.push(`view[${openAt}]: ${open.length} tool call(s) unanswered before view[${i}]`);
    open = [];
    openAt = -1;
    if (calls.length) {
      if (!isAssistant(message)) problems.push(`view[${i}]: tool calls on a ${String(message.role)} message`);
      open = [...calls];
      openAt = i;
    }
  });
  // calls still open here belong to the last step: pending, which is allowed
  return problems;
}

/**
 * Responses pairing: the call items of a step (a run of model-side items) are answered by output
 * items after it, in any order, before the next message or step; a reasoning item is followed by
 * another item of its step, never cut off from it. Calls still open at the end are a pending step.
 */
function responsesPairingProblems(view: readonly ProviderMessage[]): string[] {
  const problems: string[] = [];
  let open: Array<{ id: string | undefined; name: string }> = [];
  let openAt = -1;
  view.forEach((item, i) => {
    const results = resultsOf(item, 'openai-responses');
    if (item.type === 'reasoning' && i + 1 < view.length && !isResponsesStepItem(view[i + 1]))
      problems.push(`view[${i}]: reasoning item not followed by an item of its step`);
    if (results.length) {
      for (const result of results) {
        const at = open.findIndex((call) => call.id === result.id);
        if (at < 0) problems.push(`view[${i}]: output ${JSON.stringify(result.id)} answers no open call`);
        else open.splice(at, 1);
      }
      return;
    }
    const stepItem = isResponsesStepItem(item);
    const continuesStep = stepItem && i > 0 && isResponsesStepItem(view[i - 1]);
    if (!continuesStep) {
      if (open.length) problems.push(`view[${openAt}]: ${open.length} call(s) unanswered before view[${i}]`);
      open = [];
      openAt = -1;
    }
    const calls = callsOf(item, 'openai-responses');
    if (calls.length) {
      if (openAt < 0) openAt = i;
      open.push(...calls);
    }
  });
  return problems;
}
