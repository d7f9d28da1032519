// IndexedDB in real Chromium (vitest browser mode with Debian chromium): the same cases as in Node.
import { it, expect } from 'vitest';
import { runIndexedDbCases } from '../storage/indexeddb-cases.ts';

it("runs against the browser's own IndexedDB, not a polyfill", () => {
  expect(Object.prototype.toString.call(indexedDB)).toBe('[object IDBFactory]');
  expect(navigator.userAgent).toMatch(/Chrome\//);
});

runIndexedDbCases('Chromium');
