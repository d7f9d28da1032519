import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BaselineMessage } from '../../src/baselines/types.ts';

export interface CorpusSession {
  readonly file: string;
  readonly messages: readonly BaselineMessage[];
}

export interface LoadOptions {
  /** Only the first `limit` files, in name order. */
  readonly limit?: number;
  /** Only files whose name contains one of these strings. */
  readonly only?: readonly string[];
}

/** The sessions of a corpus folder: every `*.json` but `index.json`, sorted by name like the scorer. */
export function loadSessions(directory: string, options: LoadOptions = {}): CorpusSession[] {
  let files = readdirSync(directory)
    .filter((file) => file.endsWith('.json') && file !== 'index.json')
    .sort();
  if (options.only && options.only.length > 0)
    files = files.filter((file) => options.only!.some((part) => file.includes(part)));
  if (options.limit !== undefined) files = files.slice(0, options.limit);
  return files.map((file) => {
    const parsed = JSON.parse(readFileSync(join(directory, file), 'utf8')) as { messages?: BaselineMessage[] };
    if (!Array.isArray(parsed.messages)) throw new Error(`${file}: no "messages" array`);
    return { file, messages: parsed.messages };
  });
}
