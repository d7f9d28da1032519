import type { ProviderMessage } from '../messages/types.ts';

/** Content as a block list: a string becomes one text block (an empty string none). */
export function contentBlocks(content: unknown): unknown[] {
  if (Array.isArray(content)) return content;
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return [];
}

/**
 * Joins adjacent messages of one role into one, as the CLIs do before calling the API (Claude
 * Code writes every content block of a response, and every tool result, as its own record).
 * A message that stands alone keeps its content exactly as written.
 */
export function mergeAdjacentRoles(
  messages: readonly ProviderMessage[],
  field: 'content' | 'parts',
): ProviderMessage[] {
  const merged: ProviderMessage[] = [];
  for (const message of messages) {
    const previous = merged[merged.length - 1];
    if (previous !== undefined && previous.role === message.role) {
      const joined =
        field === 'content'
          ? [...contentBlocks(previous.content), ...contentBlocks(message.content)]
          : [...(previous.parts as unknown[]), ...(message.parts as unknown[])];
      merged[merged.length - 1] = { ...previous, [field]: joined };
    } else {
      merged.push(message);
    }
  }
  return merged;
}
