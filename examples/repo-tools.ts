// Two read-only tools over one directory, shared by the provider loop examples.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';

/** Longest tool output the examples hand back, so one file cannot flood a call. */
const MAX_OUTPUT_CHARS = 20_000;

export const TOOL_DESCRIPTIONS = {
  list_directory: 'List the entries of a directory, relative to the project root.',
  read_file: 'Read a UTF-8 text file, relative to the project root.',
} as const;

export const TOOL_PARAMETERS = {
  type: 'object',
  properties: { path: { type: 'string', description: 'Path relative to the project root' } },
  required: ['path'],
} as const;

export type ToolName = keyof typeof TOOL_DESCRIPTIONS;

/** Runs a tool call; errors come back as text, as an agent harness would report them. */
export function runRepoTool(root: string, name: string, input: unknown): { text: string; isError: boolean } {
  const path = typeof (input as { path?: unknown } | null)?.path === 'string' ? (input as { path: string }).path : '.';
  const target = resolve(root, path);
  if (target !== resolve(root) && !target.startsWith(resolve(root) + sep))
    return { text: `refused: ${path} is outside the project`, isError: true };
  try {
    if (name === 'list_directory') {
      return {
        text: readdirSync(target)
          .sort()
          .map((entry) => (statSync(resolve(target, entry)).isDirectory() ? `${entry}/` : entry))
          .join('\n'),
        isError: false,
      };
    }
    if (name === 'read_file') {
      const text = readFileSync(target, 'utf8');
      return {
        text:
          text.length > MAX_OUTPUT_CHARS
            ? `${text.slice(0, MAX_OUTPUT_CHARS)}\n[cut at ${MAX_OUTPUT_CHARS} chars]`
            : text,
        isError: false,
      };
    }
    return { text: `unknown tool ${name}`, isError: true };
  } catch (error) {
    return {
      text: `error: ${(error as Error).message.replace(resolve(root), relative(root, root) || '.')}`,
      isError: true,
    };
  }
}
