import type { ProviderMessage } from '../../src/index.ts';
import type { CallResult } from '../../test/storage/resume-driver.ts';

/** What the resume page offers the Playwright spec on `window`. */
export interface ResumePageApi {
  /** Runs calls [0, calls) on a fresh session, saving the session to IndexedDB after each call. */
  runFirst(history: ProviderMessage[], calls: number): Promise<{ results: CallResult[]; savedVersion: number }>;
  /** Loads the session from IndexedDB, restores it and runs calls [from, to). */
  resume(
    history: ProviderMessage[],
    from: number,
    to: number,
  ): Promise<{ results: CallResult[]; loadedVersion: number }>;
}

declare global {
  interface Window {
    warpfoldResume?: ResumePageApi;
  }
}
