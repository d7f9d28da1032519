import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { DEFAULT_SESSION_LIMIT, findSessions, type CliSource } from './find-sessions.ts';

/** Set in the re-run process, so it never re-runs itself again. */
const MARKER = 'WARPFOLD_HEAP_LIMIT_SET';
const MEGABYTE = 1024 * 1024;
/** The live heap of a replay is about this many times the session file (its text, its rendering, the fold's copy). */
const HEAP_PER_FILE_BYTE = 8;
const MINIMUM_HEAP_MEGABYTES = 512;
const BASE_HEAP_MEGABYTES = 256;

/**
 * A heap limit for `report` and `fold` sized to the largest transcript they will read: Node's
 * default limit lets garbage pile up to several GB before it collects, so a 100 MB session would
 * hold well over 1 GB of memory; a limit a few times the live heap keeps it near what is live.
 * Undefined when the command reads no file, or the user set a limit already.
 */
export function heapLimitFor(argv: readonly string[]): number | undefined {
  if (process.env[MARKER] !== undefined) return undefined;
  if ([...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((option) => option.includes('max-old-space-size')))
    return undefined;
  const [command, ...rest] = argv;
  if (command !== 'report' && command !== 'fold') return undefined;
  const inputs = rest.filter(
    (argument, index) =>
      !argument.startsWith('-') &&
      !(index > 0 && /^--(limit|ceiling|model|price|tokenizer|at|out|receipt)$/.test(rest[index - 1])),
  );
  const sources = (['claude', 'codex', 'gemini'] as const).filter((source) =>
    rest.includes(`--${source}`),
  ) as CliSource[];
  const limitAt = rest.indexOf('--limit');
  const limit = limitAt >= 0 ? Number(rest[limitAt + 1]) : DEFAULT_SESSION_LIMIT;
  let largest = 0;
  try {
    for (const path of findSessions(
      inputs,
      sources,
      Number.isSafeInteger(limit) && limit >= 0 ? limit : DEFAULT_SESSION_LIMIT,
    ).paths) {
      try {
        largest = Math.max(largest, statSync(path).size);
      } catch {
        // unreadable: reported by the command itself
      }
    }
  } catch {
    return undefined;
  }
  const wanted = Math.max(
    MINIMUM_HEAP_MEGABYTES,
    Math.ceil((largest * HEAP_PER_FILE_BYTE) / MEGABYTE) + BASE_HEAP_MEGABYTES,
  );
  // never below what the user's Node already allows for small inputs, never above Node's own limit
  const current = Math.floor(getHeapStatistics().heap_size_limit / MEGABYTE);
  return wanted < current ? wanted : undefined;
}

/** Runs this same command again under `node --max-old-space-size=LIMIT`; returns its exit code. */
export function rerunWithHeapLimit(limit: number, script: string, argv: readonly string[]): number {
  const result = spawnSync(process.execPath, [`--max-old-space-size=${limit}`, ...process.execArgv, script, ...argv], {
    stdio: 'inherit',
    env: { ...process.env, [MARKER]: String(limit) },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}
