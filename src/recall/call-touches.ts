import { toolFamily } from '../fold/tool-family.ts';
import type { ToolCall } from '../messages/types.ts';
import { findPathMentions } from './path-mentions.ts';
import { normalizePath } from '../text/normalize-path.ts';
import {
  backupSourcesOfShell,
  patchTouches,
  shellTouches,
  wholeViewsOfShell,
  type PathTouch,
  type TouchKind,
} from './shell-touches.ts';
import { isRecord } from '../text/is-record.ts';

const PATH_KEYS = [
  'file_path',
  'path',
  'filePath',
  'file',
  'filename',
  'absolute_path',
  'notebook_path',
  'paths',
  'files',
  'target_file',
];
// Bodies being written: code mentions paths that the call does not touch.
const BODY_KEYS = new Set([
  'content',
  'file_text',
  'new_string',
  'old_string',
  'new_str',
  'old_str',
  'new_source',
  'text',
  'edits',
  'code',
]);
const COMMAND_KEYS = ['command', 'cmd', 'script'];

const STRENGTH: Record<TouchKind, number> = { read: 0, edited: 1, written: 2 };

/** One touch per path, the strongest kind winning, in order of first appearance. */
export function mergeTouches(touches: readonly PathTouch[]): PathTouch[] {
  const byPath = new Map<string, TouchKind>();
  for (const touch of touches) {
    const known = byPath.get(touch.path);
    if (known === undefined || STRENGTH[touch.how] > STRENGTH[known]) byPath.set(touch.path, touch.how);
  }
  return [...byPath].map(([path, how]) => ({ path, how }));
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  return [];
}

/** A path argument of a file tool: one line, no spaces around, not absurdly long. */
function pathArgument(value: string): string | undefined {
  const path = normalizePath(value);
  return path !== '' && path.length <= 400 && !/[\n\r\t]/.test(path) && !/^[a-z]+:\/\//i.test(path) ? path : undefined;
}

/** The script a shell tool runs; Codex passes `["bash", "-lc", "<script>"]`. */
function shellScript(input: Record<string, unknown>): string {
  for (const key of COMMAND_KEYS) {
    const value = input[key];
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      const flag = value.findIndex((item) => item === '-c' || item === '-lc' || item === '-ic');
      return flag >= 0 && flag + 1 < value.length ? value[flag + 1] : value.join(' ');
    }
  }
  return typeof input.input === 'string' ? input.input : '';
}

/** A shell call's command, whether it is the whole input or one of its arguments. */
const shellCommandOf = (input: unknown): string =>
  typeof input === 'string' ? input : isRecord(input) ? shellScript(input) : '';

/** str_replace_editor and friends carry the action in a sub-command. */
function editorCommandKind(input: Record<string, unknown>, fallback: TouchKind): TouchKind {
  const command = typeof input.command === 'string' ? input.command : '';
  if (command === 'view') return 'read';
  if (command === 'create') return 'written';
  if (command === 'str_replace' || command === 'insert' || command === 'undo_edit' || command === 'edit')
    return 'edited';
  return fallback;
}

/**
 * Files a tool call touches and how. File tools say it in their path argument and family;
 * shell tools are read word by word; anything else contributes the paths its arguments name.
 */
export function callTouches(call: ToolCall): PathTouch[] {
  const family = toolFamily(call.name);
  const input = call.input;
  if (typeof input === 'string') {
    if (family === 'bash') return mergeTouches(shellTouches(input));
    if (/^\*\*\* Begin Patch|^\+\+\+ /m.test(input)) return mergeTouches(patchTouches(input));
    return findPathMentions(input, false).map((path) => ({ path, how: 'read' }));
  }
  if (!isRecord(input)) return [];
  const touches: PathTouch[] = [];
  if (family === 'bash') touches.push(...shellTouches(shellScript(input)));
  for (const key of ['patch', 'input', 'diff']) {
    const value = input[key];
    if (typeof value === 'string' && /^\*\*\* Begin Patch|^\+\+\+ /m.test(value)) touches.push(...patchTouches(value));
  }
  const kind: TouchKind = family === 'edit' ? 'edited' : family === 'write' ? 'written' : 'read';
  const how = family === 'edit' || family === 'write' ? editorCommandKind(input, kind) : kind;
  const named = new Set<string>();
  for (const key of PATH_KEYS) {
    for (const value of stringsOf(input[key])) {
      const path = pathArgument(value);
      if (path === undefined) continue;
      named.add(path);
      // a search tool's `path` is where it looked, which is a read even for edit-shaped names
      touches.push({ path, how: family === 'grep' || family === 'search' ? 'read' : how });
    }
  }
  if (family !== 'bash') {
    for (const [key, value] of Object.entries(input)) {
      if (BODY_KEYS.has(key) || PATH_KEYS.includes(key) || key === 'patch' || key === 'diff') continue;
      for (const text of stringsOf(value))
        for (const path of findPathMentions(text, false)) if (!named.has(path)) touches.push({ path, how: 'read' });
    }
  }
  return mergeTouches(touches);
}

/** Arguments that make a file tool show part of a file. */
const RANGE_KEYS = ['offset', 'limit', 'view_range', 'start_line', 'end_line', 'line_range', 'lines', 'range'];

/**
 * Files a call shows whole: a lone `cat`, or a file-viewing tool (Read, `view`) given no range.
 * Among earlier calls on a file, such a view is the one to page back: it is the file as the agent
 * last saw all of it.
 */
export function wholeFileViews(call: ToolCall): string[] {
  const family = toolFamily(call.name);
  const input = call.input;
  if (family === 'bash') return wholeViewsOfShell(shellCommandOf(input));
  if (!isRecord(input) || RANGE_KEYS.some((key) => input[key] !== undefined)) return [];
  const viewing = family === 'read' || (family === 'edit' && input.command === 'view');
  if (!viewing) return [];
  return PATH_KEYS.flatMap((key) => stringsOf(input[key])).flatMap((value) => pathArgument(value) ?? []);
}

/** Files a shell call copies or moves aside under a backup name: the agent is about to replace them. */
export function backupCopies(call: ToolCall): string[] {
  return toolFamily(call.name) === 'bash' ? backupSourcesOfShell(shellCommandOf(call.input)) : [];
}
