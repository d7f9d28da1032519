/**
 * Canonical script → provider-shaped history in one of the three dialects, and small readers
 * that the tests use to look at provider messages independently of the engine.
 */
import type { CanonicalCall, CanonicalScript } from './canonical.ts';

export type Dialect = 'openai' | 'anthropic' | 'gemini';
export const DIALECTS: readonly Dialect[] = ['openai', 'anthropic', 'gemini'];

export type ProviderMessage = Record<string, unknown>;

export interface ConvertOptions {
  /** Gemini only: give function calls and responses ids (newer API) or pair by name only (older). */
  readonly geminiIds?: boolean;
  /** Anthropic only: user instructions as a plain string instead of text blocks. */
  readonly anthropicStringContent?: boolean;
  /** Put the system prompt in the history (OpenAI always does; Anthropic and Gemini hosts usually pass it apart). */
  readonly systemInHistory?: boolean;
}

function callId(dialect: Dialect, call: CanonicalCall): string {
  return dialect === 'openai' ? `call_${call.id}` : dialect === 'anthropic' ? `toolu_${call.id}` : `fc_${call.id}`;
}

/** The provider-shaped history of a script: system, then per turn the instruction, each step's call message and result message(s), then the reply. */
export function toDialect(script: CanonicalScript, dialect: Dialect, options: ConvertOptions = {}): ProviderMessage[] {
  const out: ProviderMessage[] = [];
  const withSystem = dialect === 'openai' || options.systemInHistory === true;
  if (withSystem && script.system) {
    if (dialect === 'gemini') out.push({ role: 'system', parts: [{ text: script.system }] });
    else out.push({ role: 'system', content: script.system });
  }
  const geminiIds = options.geminiIds ?? true;
  for (const turn of script.turns) {
    if (dialect === 'openai') out.push({ role: 'user', content: turn.instruction });
    else if (dialect === 'anthropic') out.push({ role: 'user', content: options.anthropicStringContent ? turn.instruction : [{ type: 'text', text: turn.instruction }] });
    else out.push({ role: 'user', parts: [{ text: turn.instruction }] });

    for (const step of turn.steps) {
      if (dialect === 'openai') {
        const message: ProviderMessage = { role: 'assistant', content: step.text ?? null };
        if (step.thinking) message.reasoning_content = step.thinking;
        if (step.calls.length)
          message.tool_calls = step.calls.map((call) => ({ id: callId(dialect, call), type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }));
        out.push(message);
        step.results.forEach((result, n) => out.push({ role: 'tool', tool_call_id: callId(dialect, step.calls[n]), content: result.text }));
      } else if (dialect === 'anthropic') {
        const blocks: Record<string, unknown>[] = [];
        if (step.thinking) blocks.push({ type: 'thinking', thinking: step.thinking, signature: 'sig' });
        if (step.text) blocks.push({ type: 'text', text: step.text });
        for (const call of step.calls) blocks.push({ type: 'tool_use', id: callId(dialect, call), name: call.name, input: call.args });
        out.push({ role: 'assistant', content: blocks });
        if (step.results.length)
          out.push({
            role: 'user',
            content: step.results.map((result, n) => ({ type: 'tool_result', tool_use_id: callId(dialect, step.calls[n]), content: result.text, ...(result.isError ? { is_error: true } : {}) })),
          });
      } else {
        const parts: Record<string, unknown>[] = [];
        if (step.thinking) parts.push({ text: step.thinking, thought: true });
        if (step.text) parts.push({ text: step.text });
        for (const call of step.calls) parts.push({ functionCall: { name: call.name, args: call.args, ...(geminiIds ? { id: callId(dialect, call) } : {}) } });
        out.push({ role: 'model', parts });
        if (step.results.length)
          out.push({
            role: 'user',
            parts: step.results.map((result, n) => ({
              functionResponse: { name: step.calls[n].name, ...(geminiIds ? { id: callId(dialect, step.calls[n]) } : {}), response: result.isError ? { error: result.text } : { output: result.text } },
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

export const isAssistant = (message: ProviderMessage): boolean => message.role === 'assistant' || message.role === 'model';

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export interface SeenCall {
  readonly id: string | undefined;
  readonly name: string;
}

/** Tool calls a provider message makes, in order. */
export function callsOf(message: ProviderMessage, dialect: Dialect): SeenCall[] {
  if (dialect === 'openai') {
    if (!Array.isArray(message.tool_calls)) return [];
    return message.tool_calls.map((call: Record<string, any>) => ({ id: call.id, name: call.function?.name }));
  }
  if (dialect === 'anthropic') {
    if (!Array.isArray(message.content)) return [];
    return message.content.filter((block: any) => block?.type === 'tool_use').map((block: any) => ({ id: block.id, name: block.name }));
  }
  if (!Array.isArray(message.parts)) return [];
  return message.parts.filter((part: any) => isRecord(part?.functionCall)).map((part: any) => ({ id: part.functionCall.id, name: part.functionCall.name }));
}

/** Tool results a provider message carries, in order (id when the dialect has one, name for Gemini). */
export function resultsOf(message: ProviderMessage, dialect: Dialect): SeenCall[] {
  if (dialect === 'openai') return message.role === 'tool' ? [{ id: message.tool_call_id as string | undefined, name: String(message.name ?? '') }] : [];
  if (dialect === 'anthropic') {
    if (!Array.isArray(message.content)) return [];
    return message.content.filter((block: any) => block?.type === 'tool_result').map((block: any) => ({ id: block.tool_use_id, name: '' }));
  }
  if (!Array.isArray(message.parts)) return [];
  return message.parts.filter((part: any) => isRecord(part?.functionResponse)).map((part: any) => ({ id: part.functionResponse.id, name: part.functionResponse.name }));
}

/** Plain text of a message's prose (text content / text blocks / text parts), joined by newlines. */
export function proseOf(message: ProviderMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content)) return message.content.filter((block: any) => typeof block?.text === 'string').map((block: any) => block.text).join('\n');
  if (Array.isArray(message.parts)) return message.parts.filter((part: any) => typeof part?.text === 'string' && part.thought !== true).map((part: any) => part.text).join('\n');
  return '';
}

/** Whether the message is real user text (an instruction), not tool results and not warpfold's synthetic text. */
export function isInstruction(message: ProviderMessage, dialect: Dialect): boolean {
  if (message.role !== 'user') return false;
  if (resultsOf(message, dialect).length) return false;
  const text = proseOf(message);
  return text.trim() !== '' && !text.startsWith('[warpfold');
}
