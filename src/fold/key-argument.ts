import { argumentValues } from '../messages/plain-text.ts';
import type { ToolFamily } from './tool-family.ts';
import { isRecord } from '../text/is-record.ts';
import { headOf } from '../text/safe-cut.ts';

const KEYS_BY_FAMILY: Record<ToolFamily, readonly string[]> = {
  bash: ['command', 'cmd', 'script', 'input'],
  read: ['file_path', 'path', 'filePath', 'file', 'filename', 'absolute_path', 'paths', 'input'],
  edit: ['file_path', 'path', 'filePath', 'file', 'filename', 'input'],
  write: ['file_path', 'path', 'filePath', 'file', 'filename', 'input'],
  grep: ['pattern', 'query', 'regex', 'glob', 'path', 'input'],
  search: ['query', 'q', 'search', 'input'],
  fetch: ['url', 'uri', 'href', 'input'],
  other: ['command', 'file_path', 'path', 'query', 'url', 'pattern', 'expression', 'id', 'name', 'input', 'thought'],
};

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(' ');
  return undefined;
}

/**
 * The argument that says what a call did: the path of a read, the command of a shell, the
 * query of a search. Falls back to the first short scalar, then to the argument values.
 */
export function keyArgument(family: ToolFamily, input: unknown): string {
  if (!isRecord(input)) return scalar(input) ?? '';
  for (const key of KEYS_BY_FAMILY[family]) {
    const value = scalar(input[key]);
    if (value !== undefined && value !== '') return value;
  }
  for (const value of Object.values(input)) {
    const text = scalar(value);
    if (text !== undefined && text !== '' && text.length <= 200) return text;
  }
  // structured arguments (a todo list, nested options) read as the words the agent wrote: JSON syntax is never reused
  return argumentValues(input);
}

/** Short one-line values read whole after the key argument; longer ones are lines of their own. */
const SHORT_VALUE_CHARS = 120;

/**
 * The short values that follow the key argument in the order the agent wrote them (a shell
 * command's description and timeout), joined as the engine reads arguments: when the key is the
 * first value and every other value is a short one-line scalar, the call reads as the agent
 * wrote it. Empty otherwise.
 */
export function trailingValues(family: ToolFamily, input: unknown): string {
  if (!isRecord(input)) return '';
  const entries = Object.values(input);
  if (entries.length < 2 || scalar(entries[0]) !== keyArgument(family, input)) return '';
  const rest: string[] = [];
  for (const value of entries.slice(1)) {
    const text = scalar(value);
    if (text === undefined || text.length > SHORT_VALUE_CHARS || text.includes('\n')) return '';
    if (text !== '') rest.push(text);
  }
  return rest.join(' ');
}

/** Extra detail a named renderer adds after the key argument (read range, edit first lines). */
export function argumentDetail(family: ToolFamily, input: unknown): string {
  if (!isRecord(input)) return '';
  if (family === 'read') {
    const offset = scalar(input.offset ?? input.start_line ?? input.line);
    const limit = scalar(input.limit ?? input.end_line);
    const range = scalar(input.view_range);
    if (range) return ` [${range}]`;
    if (offset || limit) return ` @${offset ?? 0}${limit ? `+${limit}` : ''}`;
  }
  if (family === 'edit') {
    const before = scalar(input.old_string ?? input.old_str ?? input.old);
    const after = scalar(input.new_string ?? input.new_str ?? input.new);
    if (before !== undefined || after !== undefined)
      return ` "${firstLine(before ?? '', 48)}" ⇒ "${firstLine(after ?? '', 48)}"`;
  }
  if (family === 'write') {
    const content = scalar(input.content ?? input.file_text ?? input.text);
    if (content !== undefined) return ` (${content.split('\n').length} lines)`;
  }
  if (family === 'grep') {
    const path = scalar(input.path ?? input.include ?? input.glob);
    const pattern = scalar(input.pattern);
    if (path && pattern && path !== pattern) return ` in ${path}`;
  }
  return '';
}

export function firstLine(text: string, max: number): string {
  const line = text.split('\n', 1)[0].trim();
  return line.length > max ? `${headOf(line, max - 1)}…` : line;
}
