import type { CanonicalMessage, Dialect } from './types.ts';

/**
 * Whether a dialect's reasoning counts as prompt: OpenAI does not take reasoning back as input
 * text (chat `reasoning_content`, Responses reasoning items, encrypted or summarised); Anthropic
 * thinking blocks, Gemini thoughts and AI SDK reasoning parts (sent on as thinking) count.
 */
export function countsReasoningIn(dialect: Dialect): boolean {
  return dialect !== 'openai' && dialect !== 'openai-responses';
}

/** Values of a tool call's arguments, space-joined: what the model reads of them. */
export function argumentValues(input: unknown): string {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
    else if (value !== null && value !== undefined) out.push(String(value));
  };
  walk(input);
  return out.join(' ');
}

/**
 * The plain rendering every size decision uses: role, text, tool-call names with their
 * argument values, tool-result text. Reasoning that providers do not take back as input
 * (OpenAI-style reasoning_content) is left out; thinking blocks are counted.
 */
export function plainMessageText(message: CanonicalMessage, countsReasoning: boolean): string {
  let body = message.toolResults.map((result) => result.text).join('\n');
  if (message.text) body = body ? `${body}\n${message.text}` : message.text;
  if (countsReasoning && message.reasoning) body = body ? `${message.reasoning}\n${body}` : message.reasoning;
  let out = `<${message.sourceRole}>\n${body}`;
  for (const call of message.toolCalls) out += `\n[call ${call.name}] ${argumentValues(call.input)}`;
  // documents and unknown blocks are counted with the prose; images and audio add `mediaTokens`
  if (message.attachments) out += `\n${message.attachments}`;
  if (message.opaque) out += `\n${message.opaque}`;
  return `${out}\n`;
}
