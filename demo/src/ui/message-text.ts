/** Plain text and role of a provider message, for showing it (any dialect). */
import type { ProviderMessage } from '../../../src/index.ts';

function textOf(value: unknown): string {
  if (value == null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join('\n');
  if (typeof value === 'object') {
    const block = value as Record<string, unknown>;
    if (typeof block.text === 'string') return block.text;
    if (block.type === 'thinking' && typeof block.thinking === 'string') return `∴ ${block.thinking}`;
    if (block.type === 'tool_use') return `▸ ${String(block.name)} ${JSON.stringify(block.input)}`;
    if (block.type === 'tool_result') return textOf(block.content);
    if (block.functionCall && typeof block.functionCall === 'object') {
      const call = block.functionCall as Record<string, unknown>;
      return `▸ ${String(call.name)} ${JSON.stringify(call.args)}`;
    }
    if (block.functionResponse && typeof block.functionResponse === 'object')
      return JSON.stringify((block.functionResponse as Record<string, unknown>).response);
    return JSON.stringify(block);
  }
  return String(value);
}

export function messageText(message: ProviderMessage): string {
  const record = message as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof record.reasoning_content === 'string' && record.reasoning_content)
    parts.push(`∴ ${record.reasoning_content}`);
  const body = textOf(record.content ?? record.parts);
  if (body) parts.push(body);
  if (Array.isArray(record.tool_calls))
    for (const call of record.tool_calls as Array<Record<string, any>>)
      parts.push(`▸ ${call.function?.name}(${call.function?.arguments ?? ''})`);
  return parts.join('\n');
}

export function messageRole(message: ProviderMessage): string {
  const record = message as Record<string, unknown>;
  const role = String(record.role ?? '?');
  if (role === 'tool') return `tool${record.name ? ` · ${String(record.name)}` : ''}`;
  if (
    Array.isArray(record.content) &&
    (record.content as Array<{ type?: string }>).some((block) => block?.type === 'tool_result')
  )
    return `${role} · tool result`;
  return role;
}
