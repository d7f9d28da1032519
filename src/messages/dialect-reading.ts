import type { CanonicalRole, ToolCall, ToolResult } from './types.ts';
export { isRecord } from '../text/is-record.ts';

/** What a dialect reader found in one message; `readMessage` turns it into a canonical message. */
export interface DialectReading {
  readonly role: CanonicalRole;
  /** The role as the plain rendering names it (`tool` for a Responses output item). */
  readonly sourceRole: string;
  readonly text: string[];
  readonly reasoning: string[];
  readonly calls: ToolCall[];
  readonly results: ToolResult[];
}

/** JSON arguments parsed; a string that is not JSON stays a string (what the model wrote). */
export function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value) ?? '';
}

/** How a value is named in an error: `null`, `an array`, or its type. */
export function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
