// One canonical script, three provider dialects. Tool definitions and (for Anthropic and
// Gemini) the system prompt travel outside the message list, as the providers take them.
import type { BaselineMessage } from '../../../src/baselines/types.ts';
import type { Dialect } from '../../../src/baselines/dialect.ts';
import type { OutageScript } from './outage-script.ts';

export interface Transcript {
  readonly dialect: Dialect;
  /** System prompt sent beside the messages (Anthropic `system`, Gemini `systemInstruction`); null when it is a message. */
  readonly system: string | null;
  readonly messages: readonly BaselineMessage[];
}

const callId = (dialect: Dialect, step: number): string =>
  dialect === 'anthropic' ? `toolu_${String(step).padStart(2, '0')}` : `call_${String(step).padStart(2, '0')}`;

function openaiTranscript(script: OutageScript): Transcript {
  const messages: BaselineMessage[] = [
    { role: 'system', content: script.system },
    { role: 'user', content: script.task },
  ];
  script.steps.forEach((step, index) => {
    if (step.operator) messages.push({ role: 'user', content: step.operator });
    const id = callId('openai', index + 1);
    messages.push(
      step.toolCall
        ? {
            role: 'assistant',
            content: step.assistantText,
            tool_calls: [
              {
                id,
                type: 'function',
                function: { name: step.toolCall.name, arguments: JSON.stringify(step.toolCall.arguments) },
              },
            ],
          }
        : { role: 'assistant', content: step.assistantText },
    );
    if (step.toolCall) messages.push({ role: 'tool', tool_call_id: id, content: step.toolResult ?? '' });
  });
  return { dialect: 'openai', system: null, messages };
}

function anthropicTranscript(script: OutageScript): Transcript {
  const messages: BaselineMessage[] = [{ role: 'user', content: script.task }];
  script.steps.forEach((step, index) => {
    // An operator message joins the user turn that carries the previous tool result, after it.
    if (step.operator) {
      const last = messages[messages.length - 1];
      messages[messages.length - 1] = {
        ...last,
        content: [...(last.content as unknown[]), { type: 'text', text: step.operator }],
      };
    }
    const id = callId('anthropic', index + 1);
    const text = { type: 'text', text: step.assistantText };
    messages.push({
      role: 'assistant',
      content: step.toolCall
        ? [text, { type: 'tool_use', id, name: step.toolCall.name, input: step.toolCall.arguments }]
        : [text],
    });
    if (step.toolCall)
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: step.toolResult ?? '' }],
      });
  });
  return { dialect: 'anthropic', system: script.system, messages };
}

function geminiTranscript(script: OutageScript): Transcript {
  const messages: BaselineMessage[] = [{ role: 'user', parts: [{ text: script.task }] }];
  script.steps.forEach((step) => {
    if (step.operator) {
      const last = messages[messages.length - 1];
      messages[messages.length - 1] = { ...last, parts: [...(last.parts as unknown[]), { text: step.operator }] };
    }
    const text = { text: step.assistantText };
    messages.push({
      role: 'model',
      parts: step.toolCall
        ? [text, { functionCall: { name: step.toolCall.name, args: step.toolCall.arguments } }]
        : [text],
    });
    if (step.toolCall)
      messages.push({
        role: 'user',
        parts: [{ functionResponse: { name: step.toolCall.name, response: { output: step.toolResult ?? '' } } }],
      });
  });
  return { dialect: 'gemini', system: script.system, messages };
}

export function transcriptFor(script: OutageScript, dialect: Dialect): Transcript {
  if (dialect === 'anthropic') return anthropicTranscript(script);
  if (dialect === 'gemini') return geminiTranscript(script);
  return openaiTranscript(script);
}

/** Index of the message each model call produces (the agent's messages), in order. */
export function callPositions(messages: readonly BaselineMessage[]): number[] {
  return messages.flatMap((message, index) =>
    message.role === 'assistant' || message.role === 'model' ? [index] : [],
  );
}
