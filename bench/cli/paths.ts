// Where the benchmark reads and writes. Reports name every path relative to the repository, so a
// committed result says the same thing on every machine.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Real sessions shipped with the repository (MIT; test/fixtures/README.md names their sources). */
export const BUNDLED_CORPUS = join(REPO_ROOT, 'test/fixtures/sessions');
/** The full dev corpus, when the shared data folder sits beside the repository. */
export const FULL_CORPUS = join(REPO_ROOT, '../shared/corpus/dev');
/** The second shared corpus (native Claude Code, OpenHands), read with the first under `--full` where a part asks for both. */
export const FULL_CORPUS_SECOND = join(REPO_ROOT, '../shared/corpus/dev2');
/** Run output: gitignored, so a run never dirties the checkout. */
export const RUN_OUTPUT = join(REPO_ROOT, 'bench/out');
/** Committed results, rewritten only by `--update`; README tables are generated from them. */
export const COMMITTED_RESULTS = join(REPO_ROOT, 'bench/results');

/** `path` relative to the repository, with forward slashes. */
export function repoRelative(path: string): string {
  const relativePath = relative(REPO_ROOT, resolve(path)).split('\\').join('/');
  return relativePath === '' ? '.' : relativePath;
}

/** A corpus folder that is not there: one line for the user, never a stack trace. */
export class CorpusMissingError extends Error {
  override readonly name = 'CorpusMissingError';
  constructor(
    readonly corpus: string,
    hint: string,
  ) {
    super(`bench: no corpus folder at ${repoRelative(corpus)}${hint ? ` (${hint})` : ''}`);
  }
}

export interface CorpusChoice {
  /** `--corpus DIR`, relative to the current directory. */
  readonly corpus?: string;
  /** `--full`: the shared dev corpus beside the repository. */
  readonly full?: boolean;
}

/** The folder a replay reads: `--corpus DIR`, else `--full` (../shared/corpus/dev), else the bundled sessions. */
export function resolveCorpus(choice: CorpusChoice = {}): string {
  if (choice.corpus !== undefined) {
    const corpus = isAbsolute(choice.corpus) ? choice.corpus : resolve(process.cwd(), choice.corpus);
    if (!existsSync(corpus) || !statSync(corpus).isDirectory())
      throw new CorpusMissingError(corpus, 'pass --corpus a folder of { "messages": [...] } JSON sessions');
    return corpus;
  }
  if (choice.full) {
    if (!existsSync(FULL_CORPUS))
      throw new CorpusMissingError(
        FULL_CORPUS,
        '--full needs the shared data folder beside the repository; without it the bundled sessions are used by default',
      );
    return FULL_CORPUS;
  }
  return BUNDLED_CORPUS;
}
