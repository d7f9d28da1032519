import { DurableObject } from 'cloudflare:workers';
import type { ProviderMessage } from '../../src/index.ts';
import { createDurableObjectStore } from '../../src/storage/durable-object.ts';
import { ResumeDriver, type CallResult } from '../storage/resume-driver.ts';

const SESSION_ID = 'session';

/**
 * A Durable Object that keeps one FoldSession the way a deployment would: in memory while it lives,
 * saved to its SQLite storage after every call, restored from there when the object starts again.
 */
export class FoldSessionObject extends DurableObject {
  /** Changes whenever the runtime starts a new instance, so a test can see the restart. */
  readonly instance = crypto.randomUUID();
  private readonly store = createDurableObjectStore(this.ctx.storage);
  private driver: ResumeDriver | undefined;
  private version = 0;

  async call(
    history: ProviderMessage[],
    call: number,
  ): Promise<CallResult & { instance: string; restoredFromStorage: boolean }> {
    let restoredFromStorage = false;
    if (this.driver === undefined) {
      const stored = await this.store.sessions.load(SESSION_ID);
      this.driver = new ResumeDriver(stored?.state);
      this.version = stored?.version ?? 0;
      restoredFromStorage = stored !== undefined;
    }
    const result = await this.driver.call(history, call);
    this.version = (
      await this.store.sessions.save(SESSION_ID, this.driver.snapshot(), { expectedVersion: this.version })
    ).version;
    return { ...result, instance: this.instance, restoredFromStorage };
  }
}
