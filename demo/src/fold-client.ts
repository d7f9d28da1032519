/** The page's side of the fold worker: one job at a time, the newest wins; views asked for one at a time, the newest wins. */
import type { ProviderMessage } from '../../src/index.ts';
import type { CallView, FoldResult, FoldSettings, WorkerReply } from './fold/protocol.ts';

export interface FoldClientEvents {
  progress(done: number, total: number, phase: string): void;
  result(result: FoldResult): void;
  view(view: CallView): void;
  error(message: string): void;
}

export class FoldClient {
  private readonly worker = new Worker(new URL('./fold/fold-worker.ts', import.meta.url), { type: 'module' });
  private job = 0;
  private viewInFlight = false;
  private pendingView: number | null = null;

  constructor(private readonly events: FoldClientEvents) {
    this.worker.onmessage = (event: MessageEvent<WorkerReply>) => this.receive(event.data);
    this.worker.onerror = (event) => events.error(`the fold worker failed: ${event.message}`);
  }

  fold(history: ProviderMessage[], settings: FoldSettings, remote?: { url: string; token: string }): void {
    this.job++;
    this.viewInFlight = false;
    this.pendingView = null;
    this.worker.postMessage({ type: 'fold', job: this.job, history, settings, ...(remote ? { remote } : {}) });
  }

  /** Asks for the view at `call`; while one is on its way, only the newest request waits. */
  requestView(call: number): void {
    if (this.viewInFlight) {
      this.pendingView = call;
      return;
    }
    this.viewInFlight = true;
    this.worker.postMessage({ type: 'view', job: this.job, call });
  }

  private receive(reply: WorkerReply): void {
    if (reply.job !== this.job) return;
    if (reply.type === 'progress') this.events.progress(reply.done, reply.total, reply.phase);
    else if (reply.type === 'result') this.events.result(reply.result);
    else if (reply.type === 'error') this.events.error(reply.message);
    else {
      this.viewInFlight = false;
      this.events.view(reply.view);
      if (this.pendingView !== null) {
        const next = this.pendingView;
        this.pendingView = null;
        this.requestView(next);
      }
    }
  }
}
