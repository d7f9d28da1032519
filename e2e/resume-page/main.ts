// The resume page: the library from src/, a real IndexedDB, and nothing kept in memory across reloads.
import { createIndexedDbStore } from '../../src/storage/indexeddb.ts';
import { ResumeDriver, type CallResult } from '../../test/storage/resume-driver.ts';
import type { ResumePageApi } from './api.ts';

const SESSION_ID = 'pydicom-1458';
const store = createIndexedDbStore({ name: 'warpfold-resume-e2e' });

const api: ResumePageApi = {
  async runFirst(history, calls) {
    const driver = new ResumeDriver();
    const results: CallResult[] = [];
    let version = 0;
    for (let call = 0; call < calls; call++) {
      results.push(await driver.call(history, call));
      version = (await store.sessions.save(SESSION_ID, driver.snapshot(), { expectedVersion: version })).version;
    }
    return { results, savedVersion: version };
  },
  async resume(history, from, to) {
    const stored = await store.sessions.load(SESSION_ID);
    if (stored === undefined) throw new Error('no saved session in IndexedDB');
    const driver = new ResumeDriver(stored.state);
    const results: CallResult[] = [];
    let version = stored.version;
    for (let call = from; call < to; call++) {
      results.push(await driver.call(history, call));
      version = (await store.sessions.save(SESSION_ID, driver.snapshot(), { expectedVersion: version })).version;
    }
    return { results, loadedVersion: stored.version };
  },
};

window.warpfoldResume = api;
document.querySelector('#status')!.textContent = 'ready';
