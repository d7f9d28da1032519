import { describe, it, expect } from 'vitest';
import { IndexedDbUnavailableError } from '../../src/storage/index.ts';

// No fake-indexeddb here: this file checks what happens where there is no IndexedDB at all.
describe('indexeddb store without IndexedDB', () => {
  it('importing and creating touch nothing; the first operation rejects with IndexedDbUnavailableError', async () => {
    let touched = 0;
    Object.defineProperty(globalThis, 'indexedDB', {
      configurable: true,
      get() {
        touched++;
        return undefined;
      },
    });
    try {
      const module = await import('../../src/storage/indexeddb.ts');
      const store = module.createIndexedDbStore({ name: 'never-opened' });
      expect(touched).toBe(0);
      await expect(store.sessions.load('s1')).rejects.toBeInstanceOf(IndexedDbUnavailableError);
      await expect(store.episodes.list()).rejects.toMatchObject({ code: 'indexeddb-unavailable' });
      expect(touched).toBeGreaterThan(0);
    } finally {
      delete (globalThis as { indexedDB?: unknown }).indexedDB;
    }
  });

  it('a factory that refuses to open is reported as unavailable, not thrown raw', async () => {
    Object.defineProperty(globalThis, 'indexedDB', {
      configurable: true,
      value: {
        open() {
          throw new DOMException('The user denied permission to access the database.', 'InvalidStateError');
        },
      },
    });
    try {
      const { createIndexedDbStore } = await import('../../src/storage/indexeddb.ts');
      await expect(createIndexedDbStore({ name: 'private-mode' }).sessions.list()).rejects.toBeInstanceOf(
        IndexedDbUnavailableError,
      );
    } finally {
      delete (globalThis as { indexedDB?: unknown }).indexedDB;
    }
  });
});
