// Bundled by bench/storage.ts into a page for Chromium: the IndexedDB store measured in the browser.
import { createIndexedDbStore } from '../../src/storage/indexeddb.ts';
import { inProcess, measureStorage, type StorageMeasurement, type StorageWorkload } from './measure.ts';

declare global {
  interface Window {
    runStorageBench?: (workload: StorageWorkload) => Promise<StorageMeasurement>;
  }
}

window.runStorageBench = async (workload) => {
  const storage = createIndexedDbStore({ name: `warpfold-bench-${Date.now().toString(36)}` });
  try {
    return await measureStorage(workload, inProcess(storage));
  } finally {
    storage.close();
  }
};
