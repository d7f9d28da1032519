// The reference scorer's own functions, lifted from ../shared/bench/score.mjs so tests compare
// against the real definitions rather than a copy. The scorer runs a replay when imported,
// so its rendering, identifier and baseline section is evaluated on its own.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

export const SCORER_PATH = fileURLToPath(new URL('../../../shared/bench/score.mjs', import.meta.url));
export const CORPUS_PATH = fileURLToPath(new URL('../../../shared/corpus/dev', import.meta.url));
export const scorerAvailable = existsSync(SCORER_PATH);
export const corpusAvailable = existsSync(CORPUS_PATH);

type Message = Record<string, unknown>;

export interface ScorerFunctions {
  renderMessage(message: Message): string;
  identifiers(text: string): Set<string>;
  contexts(message: Message): Array<[string, string]>;
  messageShingles(message: Message): Set<string>;
  truncateView(history: Message[], ceiling: number): Message[];
  maskView(history: Message[], ceiling: number): Message[];
  clearView(history: Message[], ceiling: number, state: { cleared: Set<number> }): Message[];
  sawtoothView(history: Message[], ceiling: number, state: { fold: Message | null; b: number; lines: boolean }): Message[];
}

export function loadScorerFunctions(): ScorerFunctions {
  const source = readFileSync(SCORER_PATH, 'utf8');
  const start = source.indexOf('// ---------- rendering and identifiers ----------');
  const end = source.indexOf('async function loadFoldSession');
  if (start < 0 || end < 0) throw new Error('score.mjs layout changed: section markers not found');
  const section = source.slice(start, end);
  const build = new Function(
    'countTokens',
    'args',
    `const MASK_KEEP = 10;\n${section}\nreturn { renderMessage, identifiers, contexts, messageShingles, truncateView, maskView, clearView, sawtoothView };`,
  );
  return build(countTokens, {}) as ScorerFunctions;
}
