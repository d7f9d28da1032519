/**
 * Canonical script → provider-shaped history in one of the five dialects, and small readers
 * that the tests use to look at provider messages independently of the engine.
 */
import type { CanonicalCall, CanonicalScript } from './canonical.ts';

export type Dialect = 'openai' | 'anthropic' | 'gemini' | 'openai-responses' | 'ai-sdk';
export const DIALECTS: readonly Dialect[] = ['openai', 'anthropic', 'gemini', 'openai-responses', 'ai-sdk'];

export type ProviderMessage = Record<string, unknown>;

export interface ConvertOptions {
  /** Gemini only: give function calls and responses ids (newer API) or pair by name only (older). */
  readonly geminiIds?: boolean;
  /** Anthropic only: user instructions as a plain string instead of text blocks. */
  readonly anthropicStringContent?: boolean;
  /** Put the system prompt in the history (OpenAI always does; Anthropic and Gemini hosts usually pass it apart). */
  readonly systemInHistory?: boolean;
  /** Responses only: bash, edit_file and think calls as shell_call, apply_patch_call and custom_tool_call items. */
  readonly responsesBuiltinTools?: boolean;
  /** AI SDK only: how tool results carry their output (`text`; `json` wraps it in an object; `content` as text parts). */
  readonly aiSdkOutput?: 'text' | 'json' | 'content';
}

function callId(dialect: Dialect, call: CanonicalCall): string {
  return dialect === 'openai' || dialect === 'openai-responses' || dialect === 'ai-sdk'
    ? `call_${call.id}`
    : dialect === 'anthropic'
      ? `toolu_${call.id}`
      : `fc_${call.id}`;
}

/** An opaque stand-in for encrypted reasoning: base64-looking and deterministic. */
function encryptedContent(text: string): string {
  let hash = 2166136261;
  let out = 'gAAAAB';
  for (let i = 0; i < 96; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i % Math.max(1, text.length)) ^ i, 16777619) >>> 0;
    out += 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[hash % 64];
  }
  return out;
}

/** One call and its result (or undefined while pending) as Responses items. */
function responsesCall(
  call: CanonicalCall,
  result: { text: string; isError: boolean } | undefined,
  builtin: boolean,
): [ProviderMessage, ProviderMessage | undefined] {
  const call_id = callId('openai-responses', call);
  if (builtin && call.name === 'bash')
    return [
      {
        type: 'shell_call',
        id: `sh_${call.id}`,
        call_id,
        action: { commands: [String(call.args.command)] },
        status: 'completed',
      },
      result && {
        type: 'shell_call_output',
        call_id,
        output: [{ stdout: result.text, stderr: '', outcome: { type: 'exit', exit_code: result.isError ? 1 : 0 } }],
      },
    ];
  if (builtin && call.name === 'edit_file') {
    const diff = `@@\n-${String(call.args.old_string)}\n+${String(call.args.new_string)}`;
    return [
      {
        type: 'apply_patch_call',
        id: `apc_${call.id}`,
        call_id,
        status: 'completed',
        operation: { type: 'update_file', path: String(call.args.path), diff },
      },
      result && {
        type: 'apply_patch_call_output',
        call_id,
        status: result.isError ? 'failed' : 'completed',
        output: result.text,
      },
    ];
  }
  if (builtin && call.name === 'think')
    return [
      { type: 'custom_tool_call', id: `ctc_${call.id}`, call_id, name: 'think', input: String(call.args.thought) },
      result && { type: 'custom_tool_call_output', call_id, output: result.text },
    ];
  return [
    {
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id,
      name: call.name,
      arguments: JSON.stringify(call.args),
      status: 'completed',
    },
    result && { type: 'function_call_output', call_id, output: result.text },
  ];
}

function aiSdkOutput(result: { text: string; isError: boolean }, kind: ConvertOptions['aiSdkOutput']): ProviderMessage {
  if (kind === 'json')
    return result.isError
      ? { type: 'error-json', value: { error: result.text } }
      : { type: 'json', value: { output: result.text } };
  if (kind === 'content' && !result.isError) return { type: 'content', value: [{ type: 'text', text: result.text }] };
  return { type: result.isError ? 'error-text' : 'text', value: result.text };
}

/** A script as OpenAI Responses input items: one assistant step is reasoning, message and call items. */
function toResponses(script: CanonicalScript, options: ConvertOptions): ProviderMessage[] {
  const out: ProviderMessage[] = [];
  if (script.system) out.push({ role: 'developer', content: script.system });
  let n = 0;
  for (const turn of script.turns) {
    out.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.instruction }] });
    for (const step of turn.steps) {
      n++;
      if (step.thinking)
        out.push({
          type: 'reasoning',
          id: `rs_${n}`,
          summary: [{ type: 'summary_text', text: step.thinking }],
          encrypted_content: encryptedContent(step.thinking),
        });
      if (step.text)
        out.push({
          type: 'message',
          id: `msg_${n}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: step.text, annotations: [] }],
        });
      const pairs = step.calls.map((call, k) =>
        responsesCall(call, step.results[k], options.responsesBuiltinTools === true),
      );
      for (const [call] of pairs) out.push(call);
      for (const [, result] of pairs) if (result) out.push(result);
    }
    if (turn.reply !== undefined)
      out.push({
        type: 'message',
        id: `msg_${++n}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn.reply, annotations: [] }],
      });
  }
  return out;
}

/** A script as AI SDK ModelMessages: assistant parts, one tool message per step's results. */
function toModelMessages(script: CanonicalScript, options: ConvertOptions): ProviderMessage[] {
  const out: ProviderMessage[] = [];
  if (script.system) out.push({ role: 'system', content: script.system });
  for (const turn of script.turns) {
    out.push({
      role: 'user',
      content: options.anthropicStringContent ? turn.instruction : [{ type: 'text', text: turn.instruction }],
    });
    for (const step of turn.steps) {
      const parts: ProviderMessage[] = [];
      if (step.thinking)
        parts.push({
          type: 'reasoning',
          text: step.thinking,
          providerOptions: { anthropic: { signature: encryptedContent(step.thinking) } },
        });
      if (step.text) parts.push({ type: 'text', text: step.text });
      for (const call of step.calls)
        parts.push({ type: 'tool-call', toolCallId: callId('ai-sdk', call), toolName: call.name, input: call.args });
      out.push({ role: 'assistant', content: parts });
      if (step.results.length)
        out.push({
          role: 'tool',
          content: step.results.map((result, k) => ({
            type: 'tool-result',
            toolCallId: callId('ai-sdk', step.calls[k]),
            toolName: step.calls[k].name,
            output: aiSdkOutput(result, options.aiSdkOutput),
          })),
        });
    }
    if (turn.reply !== undefined) out.push({ role: 'assistant', content: turn.reply });
  }
  return out;
}

/** The provider-shaped history of a script: system, then per turn the instruction, each step's call message and result message(s), then the reply. */
export function toDialect(script: CanonicalScript, dialect: Dialect, options: ConvertOptions = {}): ProviderMessage[] {
  if (dialect === 'openai-responses') return toResponses(script, options);
  if (dialect === 'ai-sdk') return toModelMessages(script, options);
  const out: ProviderMessage[] = [];
  const withSystem = dialect === 'openai' || options.systemInHistory === true;
  if (withSystem && script.system) {
    if (dialect === 'gemini') out.push({ role: 'system', parts: [{ text: script.system }] });
    else out.push({ role: 'system', content: script.system });
  }
  const geminiIds = options.geminiIds ?? true;
  for (const turn of script.turns) {
    if (dialect === 'openai') out.push({ role: 'user', content: turn.instruction });
    else if (dialect === 'anthropic')
      out.push({
        role: 'user',
        content: options.anthropicStringContent ? turn.instruction : [{ type: 'text', text: turn.instruction }],
      });
    else out.push({ role: 'user', parts: [{ text: turn.instruction }] });

    for (const step of turn.steps) {
      if (dialect === 'openai') {
        const message: ProviderMessage = { role: 'assistant', content: step.text ?? null };
        if (step.thinking) message.reasoning_content = step.thinking;
        if (step.calls.length)
          message.tool_calls = step.calls.map((call) => ({
            id: callId(dialect, call),
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          }));
        out.push(message);
        step.results.forEach((result, n) =>
          out.push({ role: 'tool', tool_call_id: callId(dialect, step.calls[n]), content: result.text }),
        );
      } else if (dialect === 'anthropic') {
        const blocks: Record<string, unknown>[] = [];
        if (step.thinking) blocks.push({ type: 'thinking', thinking: step.thinking, signature: 'sig' });
        if (step.text) blocks.push({ type: 'text', text: step.text });
        for (const call of step.calls)
          blocks.push({ type: 'tool_use', id: callId(dialect, call), name: call.name, input: call.args });
        out.push({ role: 'assistant', content: blocks });
        if (step.results.length)
          out.push({
            role: 'user',
            content: step.results.map((result, n) => ({
              type: 'tool_result',
              tool_use_id: callId(dialect, step.calls[n]),
              content: result.text,
              ...(result.isError ? { is_error: true } : {}),
            })),
          });
      } else {
        const parts: Record<string, unknown>[] = [];
        if (step.thinking) parts.push({ text: step.thinking, thought: true });
        if (step.text) parts.push({ text: step.text });
        for (const call of step.calls)
          parts.push({
            functionCall: { name: call.name, args: call.args, ...(geminiIds ? { id: callId(dialect, call) } : {}) },
          });
        out.push({ role: 'model', parts });
        if (step.results.length)
          out.push({
            role: 'user',
            parts: step.results.map((result, n) => ({
              functionResponse: {
                name: step.calls[n].name,
                ...(geminiIds ? { id: callId(dialect, step.calls[n]) } : {}),
                response: result.isError ? { error: result.text } : { output: result.text },
              },
            })),
          });
      }
    }
    if (turn.reply !== undefined) {
      if (dialect === 'openai') out.push({ role: 'assistant', content: turn.reply });
      else if (dialect === 'anthropic') out.push({ role: 'assistant', content: [{ type: 'text', text: turn.reply }] });
      else out.push({ role: 'model', parts: [{ text: turn.reply }] });
    }
  }
  return out;
}

export const isAssistant = (message: ProviderMessage): boolean =>
  message.role === 'assistant' || message.role === 'model';

/** A Responses item of the model's side of a step (reasoning, assistant message, a call). */
export const isResponsesStepItem = (message: ProviderMessage): boolean =>
  typeof message.type === 'string' &&
  (message.type === 'message' ? message.role === 'assistant' : !message.type.endsWith('_output'));

/** Skeleton names of Responses call items (function and custom calls carry their own). */
const RESPONSES_CALL_NAMES: Record<string, string | undefined> = {
  function_call: undefined,
  custom_tool_call: undefined,
  shell_call: 'shell',
  local_shell_call: 'local_shell',
  apply_patch_call: 'apply_patch',
  computer_call: 'computer',
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export interface SeenCall {
  readonly id: string | undefined;
  readonly name: string;
}

/** Tool calls a provider message makes, in order. */
export function callsOf(message: ProviderMessage, dialect: Dialect): SeenCall[] {
  if (dialect === 'openai-responses') {
    const type = String(message.type);
    if (!(type in RESPONSES_CALL_NAMES)) return [];
    return [{ id: message.call_id as string, name: RESPONSES_CALL_NAMES[type] ?? String(message.name) }];
  }
  if (dialect === 'ai-sdk') {
    if (!Array.isArray(message.content)) return [];
    return message.content
      .filter((part: any) => part?.type === 'tool-call')
      .map((part: any) => ({ id: part.toolCallId, name: part.toolName }));
  }
  if (dialect === 'openai') {
    if (!Array.isArray(message.tool_calls)) return [];
    return message.tool_calls.map((call: Record<string, any>) => ({ id: call.id, name: call.function?.name }));
  }
  if (dialect === 'anthropic') {
    if (!Array.isArray(message.content)) return [];
    return message.content
      .filter((block: any) => block?.type === 'tool_use')
      .map((block: any) => ({ id: block.id, name: block.name }));
  }
  if (!Array.isArray(message.parts)) return [];
  return message.parts
    .filter((part: any) => isRecord(part?.functionCall))
    .map((part: any) => ({ id: part.functionCall.id, name: part.functionCall.name }));
}

/** Tool results a provider message carries, in order (id when the dialect has one, name for Gemini). */
export function resultsOf(message: ProviderMessage, dialect: Dialect): SeenCall[] {
  if (dialect === 'openai-responses')
    return typeof message.type === 'string' && message.type.endsWith('_output')
      ? [{ id: message.call_id as string | undefined, name: '' }]
      : [];
  if (dialect === 'ai-sdk') {
    if (!Array.isArray(message.content)) return [];
    return message.content
      .filter((part: any) => part?.type === 'tool-result')
      .map((part: any) => ({ id: part.toolCallId, name: part.toolName }));
  }
  if (dialect === 'openai')
    return message.role === 'tool'
      ? [{ id: message.tool_call_id as string | undefined, name: String(message.name ?? '') }]
      : [];
  if (dialect === 'anthropic') {
    if (!Array.isArray(message.content)) return [];
    return message.content
      .filter((block: any) => block?.type === 'tool_result')
      .map((block: any) => ({ id: block.tool_use_id, name: '' }));
  }
  if (!Array.isArray(message.parts)) return [];
  return message.parts
    .filter((part: any) => isRecord(part?.functionResponse))
    .map((part: any) => ({ id: part.functionResponse.id, name: part.functionResponse.name }));
}

/** Plain text of a message's prose (text content / text blocks / text parts), joined by newlines. */
export function proseOf(message: ProviderMessage): string {
  // Responses items other than messages (reasoning, calls, outputs) have no prose
  if (typeof message.type === 'string' && message.type !== 'message') return '';
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content))
    return message.content
      .filter((block: any) => typeof block?.text === 'string' && block.type !== 'reasoning')
      .map((block: any) => block.text)
      .join('\n');
  if (Array.isArray(message.parts))
    return message.parts
      .filter((part: any) => typeof part?.text === 'string' && part.thought !== true)
      .map((part: any) => part.text)
      .join('\n');
  return '';
}

/** Whether the message is real user text (an instruction), not tool results and not warpfold's synthetic text. */
export function isInstruction(message: ProviderMessage, dialect: Dialect): boolean {
  if (message.role !== 'user') return false;
  if (resultsOf(message, dialect).length) return false;
  const text = proseOf(message);
  return text.trim() !== '' && !text.startsWith('[warpfold');
}
