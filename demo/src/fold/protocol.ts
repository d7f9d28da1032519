/** Messages between the inspector page and its fold worker. Everything is plain, cloneable data. */
import type { FoldReceipt, ProviderMessage } from '../../../src/index.ts';

export const STRATEGY_NAMES = ['warpfold', 'raw', 'truncate', 'mask', 'clear'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

export interface FoldSettings {
  /** Prompt ceiling in tokens. */
  readonly ceiling: number;
  /** Model id for prices (and, when chosen in the controls, for the ceiling through resolveContextBudget). */
  readonly priceModel: string;
  /** FoldSession freeze TTL: a call after a longer pause starts a cold-cache epoch. */
  readonly freezeTtlSeconds: number;
  /** Recall cards: on, off, or the library's default for the ceiling. */
  readonly recall: 'auto' | 'on' | 'off';
  /** Simulated time between model calls (the samples carry no timestamps). */
  readonly secondsBetweenCalls: number;
  /**
   * The history is a request not answered yet (a running proxy's latest call, opened by
   * `warpfold inspect --proxy`): replay that call too, after the last message.
   */
  readonly pendingCall?: boolean;
}

export const DEFAULT_SETTINGS: FoldSettings = {
  ceiling: 8_000,
  priceModel: 'sonnet-class',
  freezeTtlSeconds: 300,
  recall: 'auto',
  secondsBetweenCalls: 20,
};

/** What the page shows for one model call: all numbers exact o200k over the rendered messages. */
export interface CallSummary {
  /** 1-based. */
  readonly call: number;
  /** Raw messages the call saw. */
  readonly historyLength: number;
  readonly viewMessages: number;
  readonly viewTokens: number;
  readonly rawTokens: number;
  /** The session's own planning count of the view. */
  readonly sessionViewTokens: number;
  readonly cacheHot: boolean;
  /** Leading view messages byte-identical to the previous call's view. */
  readonly sharedPrefixMessages: number;
  readonly sharedPrefixTokens: number;
  /** Tokens billed as cache reads (0 under the provider's minimum or after its cache lifetime). */
  readonly cachedTokens: number;
  readonly cost: number;
  readonly epochReason: string | null;
  readonly merged: boolean;
  readonly recallCardsAdded: number;
  readonly recallCardsResident: number;
  readonly bands: number;
  readonly sealedBoundary: number | null;
}

export interface StrategySeries {
  readonly name: StrategyName;
  /** Per call (index = call - 1): prompt tokens, cumulative cost, cumulative cache-hit %, cumulative retention at need. */
  readonly tokens: number[];
  readonly cumulativeCost: number[];
  readonly cacheHitPercent: number[];
  readonly retentionPercent: number[];
}

export interface FoldResult {
  readonly calls: CallSummary[];
  readonly strategies: StrategySeries[];
  readonly receipts: FoldReceipt[];
  readonly dialect: string;
  readonly foldMilliseconds: number;
  /** The endpoint that folded (remote mode), as `remote <url>`. */
  readonly remote?: string;
}

/** One item of the view at a call, described against the raw history. */
export type ViewItem =
  | { readonly kind: 'raw'; readonly index: number; readonly tokens: number }
  | { readonly kind: 'clipped'; readonly index: number; readonly tokens: number; readonly text: string }
  | {
      readonly kind: 'band';
      readonly text: string;
      readonly tokens: number;
      readonly receipt: number;
      readonly band: number;
    }
  | { readonly kind: 'ack' | 'seed' | 'card' | 'synthetic'; readonly text: string; readonly tokens: number };

/** A running fold endpoint (the worker in `worker/`) that folds instead of the page. */
export interface RemoteEndpoint {
  readonly url: string;
  readonly token: string;
}

export interface CallView {
  readonly call: number;
  readonly items: ViewItem[];
}

export type WorkerRequest =
  | {
      readonly type: 'fold';
      readonly job: number;
      readonly history: ProviderMessage[];
      readonly settings: FoldSettings;
      readonly remote?: RemoteEndpoint;
    }
  | { readonly type: 'view'; readonly job: number; readonly call: number };

export type WorkerReply =
  | {
      readonly type: 'progress';
      readonly job: number;
      readonly done: number;
      readonly total: number;
      readonly phase: string;
    }
  | { readonly type: 'result'; readonly job: number; readonly result: FoldResult }
  | { readonly type: 'view'; readonly job: number; readonly view: CallView }
  | { readonly type: 'error'; readonly job: number; readonly message: string };
