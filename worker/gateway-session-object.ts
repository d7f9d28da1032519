import { DurableObject } from 'cloudflare:workers';
import {
  createSessionFolder,
  type CurrentView,
  type FolderCall,
  type FolderDecision,
  type SessionFolder,
  type SessionHistory,
} from '../src/gateway/index.ts';
import { createDurableObjectStore } from '../src/storage/durable-object.ts';
import type { WarpfoldStorage } from '../src/storage/index.ts';
import { createTokenCounter } from '../src/tokens/index.ts';
import { logEvent } from './log-event.ts';
import type { WorkerBindings } from './worker-bindings.ts';
import type { WorkerConfig } from './worker-config.ts';

/** What the Worker's configuration sets for a gateway session: sent with each call, as the session routes send their limits. */
export interface GatewaySessionSettings {
  readonly ceiling?: number;
  readonly fallbackModel: { readonly model: string; readonly engine: string };
  readonly maxSessionMessages: number;
  readonly maxSessionBytes: number;
  /** How long the live fold stays in memory after a call; 0: not at all. */
  readonly warmMs: number;
}

export function gatewaySessionSettings(config: WorkerConfig): GatewaySessionSettings {
  return {
    ...(config.gatewayCeilingTokens !== undefined ? { ceiling: config.gatewayCeilingTokens } : {}),
    fallbackModel: config.defaultBudget,
    maxSessionMessages: config.maxSessionMessages,
    maxSessionBytes: config.maxSessionBytes,
    warmMs: config.sessionWarmMs,
  };
}

/** One tokenizer memo per isolate: every session object in it counts with the same one. */
let sharedCounter: ((text: string) => number) | undefined;
const counter = () => {
  sharedCounter ??= createTokenCounter();
  return sharedCounter;
};

/**
 * One gateway session per object, named from its tenant and session key. It folds with the
 * gateway core's own folder over this object's SQLite storage (the session's saved fold state),
 * and never forwards anything: the Worker does, so the provider's key never reaches this object.
 * The live fold stays in memory `SESSION_WARM_SECONDS` after a call, then reloads from storage.
 */
export class GatewaySessionObject extends DurableObject<WorkerBindings> {
  private readonly storage: WarpfoldStorage;
  private folder: SessionFolder | null = null;
  private folderSettings = '';
  private coolTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(ctx: DurableObjectState, env: WorkerBindings) {
    super(ctx, env);
    this.storage = createDurableObjectStore(ctx.storage, {
      onCorruptRecord: (error) => logEvent('warn', 'corrupt-record', { error: error.message }),
    });
  }

  fold(call: FolderCall, settings: GatewaySessionSettings): Promise<FolderDecision> {
    return this.run(settings, (folder) => folder.fold(call));
  }

  measured(sessionId: string, inputTokens: number, settings: GatewaySessionSettings): Promise<void> {
    return this.run(settings, (folder) => folder.measured(sessionId, inputTokens));
  }

  currentView(sessionId: string, text: string, settings: GatewaySessionSettings): Promise<CurrentView> {
    return this.run(settings, (folder) => folder.currentView(sessionId, text));
  }

  /** The last call's raw history while the fold is warm; a read keeps it warm no longer and loads nothing. */
  lastHistory(sessionId: string): Promise<SessionHistory> {
    if (this.folder === null) return Promise.resolve({ ok: false, reason: 'not-warm' });
    return this.folder.history(sessionId);
  }

  /** Drops what is held in memory, so the next call reloads from storage (the bench's cold path). */
  forget(): void {
    if (this.coolTimer !== null) clearTimeout(this.coolTimer);
    this.coolTimer = null;
    this.folder = null;
  }

  /** Whether a fold is held in memory now (the bench reads the heap with and without it). */
  isWarm(): boolean {
    return this.folder !== null && this.folder.warmSessions > 0;
  }

  private async run<T>(settings: GatewaySessionSettings, work: (folder: SessionFolder) => Promise<T>): Promise<T> {
    try {
      return await work(this.warm(settings));
    } finally {
      if (settings.warmMs === 0) this.forget();
    }
  }

  /** The folder for these settings, made when missing (or the settings changed); kept warm `warmMs` more. */
  private warm(settings: GatewaySessionSettings): SessionFolder {
    const key = JSON.stringify(settings);
    if (this.folder === null || this.folderSettings !== key) {
      this.folderSettings = key;
      this.folder = createSessionFolder({
        storage: this.storage,
        countTokens: counter(),
        now: () => Date.now(),
        maxWarmSessions: 1,
        ...(settings.ceiling !== undefined ? { ceiling: settings.ceiling } : {}),
        fallbackModel: settings.fallbackModel,
        maxSessionMessages: settings.maxSessionMessages,
        maxSessionBytes: settings.maxSessionBytes,
      });
    }
    const folder = this.folder;
    if (this.coolTimer !== null) clearTimeout(this.coolTimer);
    this.coolTimer =
      settings.warmMs > 0
        ? setTimeout(() => {
            this.coolTimer = null;
            this.folder = null;
          }, settings.warmMs)
        : null;
    return folder;
  }
}
