import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileSystemStore, fileSystemDriver } from '../../src/node/file-system-driver.ts';
import { runDriverConformance } from './driver-conformance.ts';
import { runStorageConformance } from './storage-conformance.ts';

const root = mkdtempSync(join(tmpdir(), 'warpfold-fs-store-'));
let made = 0;
const freshDirectory = () => join(root, String(made++));
afterAll(() => rmSync(root, { recursive: true, force: true }));

runDriverConformance('file-system', async () => fileSystemDriver(freshDirectory()));

runStorageConformance('file-system', {
  async create(options) {
    const directory = freshDirectory();
    const driver = fileSystemDriver(directory);
    return {
      storage: createFileSystemStore(directory, options),
      async writeRaw(kind, id, text) {
        await driver.batch([{ key: `${kind}/${id}`, value: text }]);
      },
    };
  },
});

describe('file-system driver', () => {
  it('a second driver over the same directory reads what the first wrote, keys apart by case, long keys whole', async () => {
    const directory = freshDirectory();
    const long = `session/${'k'.repeat(400)}é`;
    await fileSystemDriver(directory).batch([
      { key: 'A/1', value: 'upper' },
      { key: 'a/1', value: 'lower' },
      { key: long, value: 'long' },
    ]);
    const reopened = fileSystemDriver(directory);
    expect(await reopened.get('A/1')).toBe('upper');
    expect(await reopened.get('a/1')).toBe('lower');
    expect(await reopened.get(long)).toBe('long');
    expect((await reopened.list('session/')).map((entry) => entry.key)).toEqual([long]);
    expect(readdirSync(directory).every((name) => Buffer.byteLength(name) < 255)).toBe(true);
  });

  it('skips a temporary file a killed writer left behind', async () => {
    const directory = freshDirectory();
    const driver = fileSystemDriver(directory);
    await driver.batch([{ key: 'k/1', value: 'one' }]);
    writeFileSync(join(directory, '.k%2f1.json.123.abc.tmp'), '"k/1"\nhalf');
    expect(await driver.list('k/', { values: true })).toEqual([{ key: 'k/1', value: 'one' }]);
  });
});
