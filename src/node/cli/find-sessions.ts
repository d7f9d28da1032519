import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The CLIs whose default transcript folders `--claude`, `--codex` and `--gemini` read. */
export type CliSource = 'claude' | 'codex' | 'gemini';

export const DEFAULT_SESSION_LIMIT = 20;

interface SourceFolder {
  /** Relative to the home directory. */
  readonly folder: string;
  readonly matches: (name: string) => boolean;
}

const SOURCE_FOLDERS: Readonly<Record<CliSource, SourceFolder>> = {
  claude: { folder: '.claude/projects', matches: (name) => name.endsWith('.jsonl') },
  codex: { folder: '.codex/sessions', matches: (name) => /^rollout-.*\.jsonl$/.test(name) },
  gemini: { folder: '.gemini/tmp', matches: (name) => /^session-.*\.jsonl?$/.test(name) },
};

export function sourceFolder(source: CliSource, home = homedir()): string {
  return join(home, SOURCE_FOLDERS[source].folder);
}

/** A transcript found on disk, with its modification time for "newest first". */
export interface FoundSession {
  readonly path: string;
  readonly modified: number;
}

function walk(folder: string, matches: (name: string) => boolean, found: FoundSession[]): void {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) walk(path, matches, found);
    else if (entry.isFile() && matches(entry.name)) found.push({ path, modified: statSync(path).mtimeMs });
  }
}

const isTranscriptName = (name: string): boolean => /\.jsonl?$/i.test(name);

export interface SessionSelection {
  /** Files named on the command line, then the newest of each folder's, oldest of those first. */
  readonly paths: string[];
  /** Folders that exist but hold no transcript, and default folders that do not exist. */
  readonly empty: string[];
}

/**
 * The files to read: every FILE named as given (even one that cannot be read: that is reported
 * later, as exit 1), and from each FOLDER and each `--claude`/`--codex`/`--gemini` folder the
 * newest `limit` transcripts (0: all), oldest first so the report reads in time order.
 */
export function findSessions(
  inputs: readonly string[],
  sources: readonly CliSource[],
  limit: number,
  home = homedir(),
): SessionSelection {
  const paths: string[] = [];
  const empty: string[] = [];
  const pools: Array<{ folder: string; matches: (name: string) => boolean }> = [];
  for (const input of inputs) {
    let isFolder = false;
    try {
      isFolder = statSync(input).isDirectory();
    } catch {
      // a missing file is kept, and fails when read
    }
    if (isFolder) pools.push({ folder: input, matches: isTranscriptName });
    else paths.push(input);
  }
  for (const source of sources)
    pools.push({ folder: sourceFolder(source, home), matches: SOURCE_FOLDERS[source].matches });
  for (const pool of pools) {
    const found: FoundSession[] = [];
    walk(pool.folder, pool.matches, found);
    if (found.length === 0) empty.push(pool.folder);
    // newest first; equal times by path, so after the reverse below they read in path order
    found.sort((a, b) => b.modified - a.modified || b.path.localeCompare(a.path));
    const newest = limit > 0 ? found.slice(0, limit) : found;
    paths.push(...newest.reverse().map((session) => session.path));
  }
  return { paths, empty };
}
