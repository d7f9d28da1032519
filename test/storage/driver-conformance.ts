import { describe, it, expect } from 'vitest';
import type { StorageDriver } from '../../src/storage/index.ts';

/**
 * The driver contract, under `createStorage`: get, list by prefix, an atomic update and an ordered
 * batch. Each driver's test file runs it in the driver's real runtime; `create` must return a fresh,
 * empty driver on every call.
 */
export function runDriverConformance(name: string, create: () => Promise<StorageDriver>): void {
  const keysOf = (entries: ReadonlyArray<{ key: string }>) => entries.map((entry) => entry.key).sort();

  describe(`StorageDriver conformance: ${name}`, () => {
    it('gets what a batch wrote, text exactly, and nothing for a missing key', async () => {
      const driver = await create();
      const texts = ['', '{"a":1}', 'line\u2028sep \\ "quoted" 🏁 é', 'x'.repeat(200_000)];
      await driver.batch(texts.map((value, index) => ({ key: `k/${index}`, value })));
      for (const [index, value] of texts.entries()) expect(await driver.get(`k/${index}`)).toBe(value);
      expect(await driver.get('k/missing')).toBeUndefined();
      expect(await driver.get('k')).toBeUndefined();
    });

    it('lists exactly the keys under a prefix, with values only when asked', async () => {
      const driver = await create();
      const keys = ['a', 'a/', 'a/1', 'a/2/deep', 'a/é', 'a/🏁', 'ab/1', 'a0', 'b/1', 'A/1'];
      await driver.batch(keys.map((key) => ({ key, value: `value of ${key}` })));
      expect(keysOf(await driver.list('a/'))).toEqual(['a/', 'a/1', 'a/2/deep', 'a/é', 'a/🏁']);
      expect(keysOf(await driver.list('a/2/'))).toEqual(['a/2/deep']);
      expect(keysOf(await driver.list('ab/'))).toEqual(['ab/1']);
      expect(await driver.list('c/')).toEqual([]);
      const withValues = await driver.list('a/', { values: true });
      expect(withValues.map(({ key, value }) => [key, value]).sort()).toEqual(
        ['a/', 'a/1', 'a/2/deep', 'a/é', 'a/🏁'].map((key) => [key, `value of ${key}`]),
      );
      expect(
        (await driver.list('a/')).every(
          (entry) => entry.value === undefined || entry.value === `value of ${entry.key}`,
        ),
      ).toBe(true);
    });

    it('lists a long value and many keys whole', async () => {
      const driver = await create();
      const long = `{"text":"${'y'.repeat(50_000)}"}`;
      await driver.batch([
        { key: 'p/long', value: long },
        ...Array.from({ length: 300 }, (_, index) => ({
          key: `p/${String(index).padStart(3, '0')}`,
          value: String(index),
        })),
      ]);
      const listed = await driver.list('p/', { values: true });
      expect(listed).toHaveLength(301);
      expect(listed.find((entry) => entry.key === 'p/long')?.value).toBe(long);
      expect(listed.find((entry) => entry.key === 'p/299')?.value).toBe('299');
    });

    it('update hands the change what is stored and writes its answer: text, null to remove, undefined to keep', async () => {
      const driver = await create();
      const seen: Array<string | undefined> = [];
      await driver.update('u', (current) => (seen.push(current), 'one'));
      await driver.update('u', (current) => (seen.push(current), undefined));
      expect(await driver.get('u')).toBe('one');
      await driver.update('u', (current) => (seen.push(current), 'two'));
      await driver.update('u', (current) => (seen.push(current), null));
      await driver.update('u', (current) => (seen.push(current), null));
      expect(seen).toEqual([undefined, 'one', 'one', 'two', undefined]);
      expect(await driver.get('u')).toBeUndefined();
      expect(await driver.list('u')).toEqual([]);
    });

    it('a change that throws writes nothing, and update rejects with what it threw', async () => {
      const driver = await create();
      await driver.batch([{ key: 'c', value: 'kept' }]);
      const refusal = new Error('no');
      await expect(
        driver.update('c', () => {
          throw refusal;
        }),
      ).rejects.toBe(refusal);
      await expect(
        driver.update('fresh', () => {
          throw refusal;
        }),
      ).rejects.toBe(refusal);
      expect(await driver.get('c')).toBe('kept');
      expect(await driver.get('fresh')).toBeUndefined();
    });

    it('concurrent updates of one key never interleave: every increment counts', async () => {
      const driver = await create();
      await Promise.all(
        Array.from({ length: 25 }, () => driver.update('counter', (current) => String(Number(current ?? '0') + 1))),
      );
      expect(await driver.get('counter')).toBe('25');
    });

    it('a batch applies its writes in order', async () => {
      const driver = await create();
      await driver.batch([
        { key: 'o/1', value: 'first' },
        { key: 'o/1', value: 'second' },
        { key: 'o/2', value: 'written' },
        { key: 'o/2', value: null },
        { key: 'o/3', value: null },
        { key: 'o/3', value: 'back' },
      ]);
      expect(await driver.get('o/1')).toBe('second');
      expect(await driver.get('o/2')).toBeUndefined();
      expect(await driver.get('o/3')).toBe('back');
      expect(keysOf(await driver.list('o/'))).toEqual(['o/1', 'o/3']);
      await driver.batch([]);
      await driver.batch([
        { key: 'o/1', value: null },
        { key: 'o/missing', value: null },
      ]);
      expect(keysOf(await driver.list('o/'))).toEqual(['o/3']);
    });
  });
}
