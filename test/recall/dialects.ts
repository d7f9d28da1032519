import { Transcript, type CanonicalMessage, type Dialect, type ProviderMessage } from '../../src/messages/index.ts';
import { estimateTokens } from '../../src/text/estimate-tokens.ts';

/** A dialect-free script of a conversation, written once and rendered in each provider's shape. */
export type ScriptStep =
  | { readonly kind: 'system'; readonly text: string }
  | { readonly kind: 'user'; readonly text: string }
  | {
      readonly kind: 'assistant';
      readonly text: string;
      readonly calls?: ReadonlyArray<{
        readonly id: string;
        readonly name: string;
        readonly input: Record<string, unknown>;
      }>;
    }
  | {
      readonly kind: 'results';
      readonly results: ReadonlyArray<{
        readonly id: string;
        readonly name: string;
        readonly text: string;
        readonly isError?: boolean;
      }>;
    };

export const DIALECTS: readonly Dialect[] = ['openai', 'anthropic', 'gemini'];

export function renderScript(script: readonly ScriptStep[], dialect: Dialect): ProviderMessage[] {
  const out: ProviderMessage[] = [];
  for (const step of script) {
    if (step.kind === 'system')
      out.push(
        dialect === 'gemini'
          ? { role: 'system', parts: [{ text: step.text }] }
          : { role: 'system', content: step.text },
      );
    else if (step.kind === 'user') {
      if (dialect === 'gemini') out.push({ role: 'user', parts: [{ text: step.text }] });
      else if (dialect === 'anthropic') out.push({ role: 'user', content: [{ type: 'text', text: step.text }] });
      else out.push({ role: 'user', content: step.text });
    } else if (step.kind === 'assistant') {
      const calls = step.calls ?? [];
      if (dialect === 'gemini') {
        out.push({
          role: 'model',
          parts: [
            ...(step.text ? [{ text: step.text }] : []),
            ...calls.map((call) => ({ functionCall: { name: call.name, args: call.input } })),
          ],
        });
      } else if (dialect === 'anthropic') {
        out.push({
          role: 'assistant',
          content: [
            ...(step.text ? [{ type: 'text', text: step.text }] : []),
            ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
          ],
        });
      } else {
        out.push({
          role: 'assistant',
          content: step.text || null,
          ...(calls.length
            ? {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.input) },
                })),
              }
            : {}),
        });
      }
    } else if (dialect === 'gemini') {
      out.push({
        role: 'user',
        parts: step.results.map((result) => ({
          functionResponse: {
            name: result.name,
            response: result.isError ? { error: result.text } : { output: result.text },
          },
        })),
      });
    } else if (dialect === 'anthropic') {
      out.push({
        role: 'user',
        content: step.results.map((result) => ({
          type: 'tool_result',
          tool_use_id: result.id,
          content: result.text,
          ...(result.isError ? { is_error: true } : {}),
        })),
      });
    } else for (const result of step.results) out.push({ role: 'tool', tool_call_id: result.id, content: result.text });
  }
  return out;
}

export function readHistory(history: readonly ProviderMessage[]): CanonicalMessage[] {
  const transcript = new Transcript(estimateTokens);
  transcript.sync(history);
  return transcript.messages;
}

/** Index of the first message whose text (or tool-result text) includes `needle`. */
export function indexOf(messages: readonly CanonicalMessage[], needle: string): number {
  const index = messages.findIndex(
    (message) => message.text.includes(needle) || message.toolResults.some((result) => result.text.includes(needle)),
  );
  if (index < 0) throw new Error(`no message contains ${needle}`);
  return index;
}

/** Index of the first message that calls a tool with an argument containing `needle`. */
export function callIndexOf(messages: readonly CanonicalMessage[], needle: string): number {
  const index = messages.findIndex((message) =>
    message.toolCalls.some((call) => JSON.stringify(call.input).includes(needle)),
  );
  if (index < 0) throw new Error(`no call mentions ${needle}`);
  return index;
}
