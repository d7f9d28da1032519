// A plain rendering of provider messages for token counting and for "was it in the prompt"
// checks. For OpenAI chat messages it is byte-identical to `renderMessage` in the reference
// scorer (../shared/bench/score.mjs); Anthropic blocks and Gemini parts go through the same
// rules, so all three dialects are measured alike.

export interface RenderableToolCall {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly function?: { readonly name?: unknown; readonly arguments?: unknown } | null;
}

export interface RenderableMessage {
  readonly role?: unknown;
  readonly content?: unknown;
  readonly parts?: unknown;
  readonly tool_calls?: readonly RenderableToolCall[] | null;
}

type Block = Record<string, unknown>;

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A document's readable text: title, context and a text source; a PDF or a reference reads as its placeholder. */
function documentText(block: Block): string {
  const source = (block.source ?? {}) as Block;
  const body =
    source.type === 'text'
      ? textOf(source.data)
      : source.type === 'content'
        ? contentText(source.content)
        : '[document]';
  return [textOf(block.title), textOf(block.context), body].filter(Boolean).join('\n');
}

/**
 * Text of a content value: a string, an array of Anthropic blocks or Gemini parts, or one block.
 * Only what a model reads as text: thinking counts, its signature does not; redacted thinking,
 * images, audio and PDFs are a short placeholder (their tokens are counted by
 * `countMessageTokens`), never their base64 or a serialized block.
 */
export function contentText(content: unknown): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(contentText).join('\n');
  if (typeof content === 'object') {
    const block = content as Block;
    if (typeof block.text === 'string') return block.text;
    if (block.type === 'thinking') return textOf(block.thinking);
    if (block.type === 'redacted_thinking') return '';
    if (block.type === 'tool_use') return `${block.name} ${JSON.stringify(block.input)}`;
    if (block.type === 'tool_result') return contentText(block.content);
    if (block.type === 'document') return documentText(block);
    const functionCall = block.functionCall as Block | undefined;
    if (functionCall) return `${functionCall.name} ${JSON.stringify(functionCall.args)}`;
    const functionResponse = block.functionResponse as Block | undefined;
    if (functionResponse) return JSON.stringify(functionResponse.response);
    if (typeof block.type === 'string') return `[${block.type}]`;
    return `[${Object.keys(block)[0] ?? 'part'}]`;
  }
  return String(content);
}

/** The string leaves of a tool call's arguments (a JSON string or an object), space-joined. */
export function toolArgumentText(rawArguments: unknown): string {
  try {
    const value = typeof rawArguments === 'string' ? JSON.parse(rawArguments) : rawArguments;
    const leaves: string[] = [];
    const walk = (node: unknown): void => {
      if (typeof node === 'string') leaves.push(node);
      else if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') Object.values(node).forEach(walk);
      else if (node != null) leaves.push(String(node));
    };
    walk(value);
    return leaves.join(' ');
  } catch {
    return String(rawArguments ?? '');
  }
}

/** `<role>\ntext` plus one `[call name] arguments` line per OpenAI tool call, newline-terminated. */
export function renderMessage(message: RenderableMessage): string {
  let rendered = `<${message.role}>\n${contentText(message.content ?? message.parts)}`;
  for (const toolCall of message.tool_calls ?? []) {
    rendered += `\n[call ${toolCall.function?.name}] ${toolArgumentText(toolCall.function?.arguments)}`;
  }
  return rendered + '\n';
}

/** The rendering of a whole prompt: its messages' renderings, concatenated. */
export function renderMessages(messages: readonly RenderableMessage[]): string {
  return messages.map(renderMessage).join('');
}
