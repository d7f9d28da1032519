import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './fixtures.ts';

/** `text` as Biome formats the file at `path`: a generated file then passes the lint as written. */
export function inHouseFormat(text: string, path: string): string {
  return execFileSync(join(REPO_ROOT, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${path}`], {
    input: text,
    encoding: 'utf8',
  });
}
