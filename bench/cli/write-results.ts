import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `name.json` and `name.md` into `directory`, returning their paths. */
export function writeResults(
  directory: string,
  name: string,
  data: unknown,
  markdown: string,
): { json: string; markdown: string } {
  mkdirSync(directory, { recursive: true });
  const jsonPath = join(directory, `${name}.json`);
  const markdownPath = join(directory, `${name}.md`);
  writeFileSync(jsonPath, JSON.stringify(data, null, 2) + '\n');
  writeFileSync(markdownPath, markdown.endsWith('\n') ? markdown : markdown + '\n');
  return { json: jsonPath, markdown: markdownPath };
}
