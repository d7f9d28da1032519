import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { createStorage } from '../storage/create-storage.ts';
import type { DriverEntry, StorageDriver } from '../storage/storage-driver.ts';
import type { StorageOptions, WarpfoldStorage } from '../storage/storage-types.ts';
import { writeFileAtomic } from './atomic-write.ts';

export interface FileSystemDriverOptions {
  /** fsync each write (default false: writes are atomic and survive a killed process, not a power loss). */
  readonly sync?: boolean;
}

/** Characters kept as they are in a file name: lowercase only, so a case-blind file system keeps keys apart. */
const PLAIN = /[a-z0-9_-]/;
/** Longer encoded names are cut and end with a digest of the key (file names stop at 255 bytes). */
const MAX_NAME = 180;
const RECORD_SUFFIX = '.json';

function encodeKey(key: string): string {
  let name = '';
  for (const character of key) {
    if (PLAIN.test(character)) name += character;
    else for (const byte of new TextEncoder().encode(character)) name += `%${byte.toString(16).padStart(2, '0')}`;
  }
  if (name.length <= MAX_NAME) return name + RECORD_SUFFIX;
  return `${name.slice(0, MAX_NAME - 66)}~${createHash('sha256').update(key).digest('hex')}${RECORD_SUFFIX}`;
}

/** The key a file name spells; undefined when the name was cut (the file's first line holds the key). */
function decodeName(name: string): string | undefined {
  const stem = name.slice(0, -RECORD_SUFFIX.length);
  return stem.includes('~') ? undefined : decodeURIComponent(stem);
}

/** Operations on one directory run one after another in this process, so an update is one step. */
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(directory: string, run: () => Promise<T>): Promise<T> {
  const result = (queues.get(directory) ?? Promise.resolve()).then(run, run);
  queues.set(
    directory,
    result.catch(() => undefined),
  );
  return result;
}

/**
 * Text values as files in one directory: one file per key, the key on its first line and the value
 * after it, each write a temporary file renamed over the old one (src/node/atomic-write.ts), so a
 * reader or a restarted process sees the old value or the new one, never half. A batch writes
 * key by key, in order. One process at a time should write a directory.
 */
export function fileSystemDriver(directory: string, options: FileSystemDriverOptions = {}): StorageDriver {
  const sync = options.sync === true;
  const pathOf = (key: string) => join(directory, encodeKey(key));
  const readRecord = async (path: string): Promise<{ key: string; value: string } | undefined> => {
    let text: string;
    try {
      text = await fs.readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const newline = text.indexOf('\n');
    return { key: JSON.parse(text.slice(0, newline)) as string, value: text.slice(newline + 1) };
  };
  const write = async (key: string, value: string | null) => {
    if (value === null) await fs.rm(pathOf(key), { force: true });
    else await writeFileAtomic(pathOf(key), `${JSON.stringify(key)}\n${value}`, { sync });
  };
  const get = async (key: string) => (await readRecord(pathOf(key)))?.value;
  return {
    name: 'file-system',
    get: (key) => serialized(directory, () => get(key)),
    list: (prefix, listOptions) =>
      serialized(directory, async () => {
        let names: string[];
        try {
          names = await fs.readdir(directory);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
          throw error;
        }
        const entries: DriverEntry[] = [];
        for (const name of names) {
          if (name.startsWith('.') || !name.endsWith(RECORD_SUFFIX)) continue;
          const decoded = decodeName(name);
          if (decoded !== undefined && !decoded.startsWith(prefix)) continue;
          if (decoded !== undefined && listOptions?.values !== true) {
            entries.push({ key: decoded });
            continue;
          }
          const record = await readRecord(join(directory, name));
          if (record === undefined || !record.key.startsWith(prefix)) continue;
          entries.push(listOptions?.values === true ? record : { key: record.key });
        }
        return entries;
      }),
    update: (key, change) =>
      serialized(directory, async () => {
        const next = change(await get(key));
        if (next !== undefined) await write(key, next);
      }),
    batch: (writes) =>
      serialized(directory, async () => {
        for (const { key, value } of writes) await write(key, value);
      }),
  };
}

/** `createStorage` over a directory: sessions, episodes and rails as files. */
export function createFileSystemStore(
  directory: string,
  options: StorageOptions & FileSystemDriverOptions = {},
): WarpfoldStorage {
  return createStorage(fileSystemDriver(directory, options), options);
}
