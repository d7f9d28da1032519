import type { TaskRail } from '../task-rail/types.ts';
import type { EpochReason } from '../freeze/freeze-state.ts';
import type { ProviderMessage } from '../messages/types.ts';

export interface FoldStats {
  /** Set when this call sealed a new prefix. */
  readonly epochReason?: EpochReason;
  /** True when the epoch re-folded sealed bands (the newest ones; all only when newer history would end up sparser than older). */
  readonly merged?: boolean;
  readonly cacheHot: boolean;
  readonly totalTurns: number;
  readonly turnsFolded: number;
  readonly messagesFolded: number;
  readonly bands: number;
  readonly rawTokens: number;
  readonly viewTokens: number;
  readonly rawChars: number;
  readonly viewChars: number;
  /** How much smaller the view is than the raw history, in percent of tokens. */
  readonly savingsPercent: number;
  readonly pressureCeilingTokens: number | null;
  readonly epochs: number;
  readonly hotReuses: number;
  /** Raw tail messages shown clipped because one alone would not fit. */
  readonly clippedMessages: number;
  /** Recall cards added by this call, and shown in all since the last epoch. */
  readonly recallCardsAdded: number;
  readonly recallCardsResident: number;
}

export interface FoldOutcome {
  /** The view to send: sealed prefix (head, seed, bands) and the raw tail. */
  readonly messages: ProviderMessage[];
  /** True when this call reused the previous call's prefix unchanged. */
  readonly cacheHot: boolean;
  /** Index in `messages` of the last message of the sealed prefix; null before anything is sealed. */
  readonly sealedBoundary: number | null;
  /** Raw messages [start, end) that the view shows folded (in bands or the rebirth seed); null when none. */
  readonly foldedRange: readonly [number, number] | null;
  readonly stats: FoldStats;
}

export interface FoldPrepareOptions {
  /** Input tokens the provider reported for the previous prompt: the truth when given. */
  readonly measuredInputTokens?: number;
  /** Collapse the view to a rebirth seed now. */
  readonly hardEpoch?: boolean;
  /** A host-rendered seed to use instead of the built-in raw rebirth seed. */
  readonly hardEpochSeed?: string;
  /** The agent's task rail, rendered into the rebirth seed if this call starts a hard epoch. */
  readonly taskRail?: TaskRail;
}
