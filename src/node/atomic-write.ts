import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { FoldOptionsError } from '../errors.ts';

/** `write` replaces the file; `dry-run` leaves it alone and writes what it would have written beside it. */
export type WriteMode = 'write' | 'dry-run';

/** Suffix of the file a dry run writes instead of the target. */
export const DRY_RUN_SUFFIX = '.warpfold-dry-run';
/** Suffix (before the timestamp) of the raw copy kept when `backup` is on. */
export const BACKUP_SUFFIX = '.warpfold-backup';

export interface AtomicWriteOptions {
  readonly mode?: WriteMode;
  /** Copy the current file to `<path>.warpfold-backup-<time>` before replacing it. */
  readonly backup?: boolean;
  /** Clock for the backup's name; `Date.now` by default. */
  readonly now?: () => number;
  /**
   * Flush the file and the directory before and after the rename (default true). Without it the
   * write is still all-or-nothing for any reader and survives the writer being killed; only a
   * power loss may take the newest write back.
   */
  readonly sync?: boolean;
}

export interface AtomicWriteResult {
  /** The file that now holds the text: the target, or the sidecar in a dry run. */
  readonly path: string;
  readonly mode: WriteMode;
  readonly backupPath?: string;
  readonly bytes: number;
}

/** Writes `text` to a temporary file in the target's directory, flushes it, then renames it over the target. */
async function replaceAtomically(path: string, text: string, sync = true): Promise<number> {
  const directory = dirname(path);
  await fs.mkdir(directory, { recursive: true });
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const data = Buffer.from(text, 'utf8');
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(temporary, 'wx', 0o600);
    await handle.writeFile(data);
    if (sync) await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temporary, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.rm(temporary, { force: true });
    throw error;
  }
  if (!sync) return data.byteLength;
  // Make the rename itself durable where the platform allows opening a directory.
  const directoryHandle = await fs.open(directory, 'r').catch(() => undefined);
  await directoryHandle?.sync().catch(() => undefined);
  await directoryHandle?.close();
  return data.byteLength;
}

/**
 * Replaces `path` with `text` so that a reader sees the old file or the new one, never half of
 * either: temp file in the same directory, fsync, rename. `backup` keeps the old bytes first;
 * `mode: 'dry-run'` writes `<path>.warpfold-dry-run` and leaves `path` untouched.
 */
export async function writeFileAtomic(
  path: string,
  text: string,
  options: AtomicWriteOptions = {},
): Promise<AtomicWriteResult> {
  const mode = options.mode ?? 'write';
  if (mode !== 'write' && mode !== 'dry-run')
    throw new FoldOptionsError(
      'mode',
      `writeFileAtomic: mode must be 'write' or 'dry-run', got ${JSON.stringify(mode)}`,
    );
  if (mode === 'dry-run') {
    const sidecar = `${path}${DRY_RUN_SUFFIX}`;
    return { path: sidecar, mode, bytes: await replaceAtomically(sidecar, text) };
  }
  let backupPath: string | undefined;
  if (options.backup === true) {
    const stamp = new Date((options.now ?? Date.now)()).toISOString().replace(/[:.]/g, '-');
    backupPath = `${path}${BACKUP_SUFFIX}-${stamp}`;
    try {
      await fs.copyFile(path, backupPath, fs.constants?.COPYFILE_EXCL ?? 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      backupPath = undefined; // nothing to back up yet
    }
  }
  return { path, mode, backupPath, bytes: await replaceAtomically(path, text, options.sync !== false) };
}
