// IndexedDB in Node through fake-indexeddb, for speed; the same cases run in real Chromium (test/browser).
import 'fake-indexeddb/auto';
import { runIndexedDbCases } from './indexeddb-cases.ts';

runIndexedDbCases('fake-indexeddb in Node');
