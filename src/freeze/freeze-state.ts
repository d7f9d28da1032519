import type { Band } from '../fold/band.ts';
import type { Dialect } from '../messages/types.ts';
import { NEUTRAL_CALIBRATION, type Calibration } from './calibration.ts';
import type { RecallState } from '../recall/recall-state.ts';
import type { ResidentCard } from '../recall/resident-card.ts';

/**
 * Why the sealed prefix was rebuilt. `FoldSession` no longer reports `restored-mismatch` (a restore
 * over a changed history answers `boundary-changed`, as the live session does); `evaluateFoldFreeze`
 * still gives it to a host loop that passes `restoredMismatch`.
 */
export type EpochReason =
  | 'first-call'
  | 'over-budget'
  | 'cold-cache'
  | 'tail-cap'
  | 'boundary-changed'
  | 'config-changed'
  | 'restored-mismatch'
  | 'hard-epoch';

export const EPOCH_REASONS: readonly EpochReason[] = [
  'first-call',
  'over-budget',
  'cold-cache',
  'tail-cap',
  'boundary-changed',
  'config-changed',
  'restored-mismatch',
  'hard-epoch',
];

export interface ClippedMessage {
  readonly maxChars: number;
  /** Tokens of the clipped message, replacing the raw count in the view's size. */
  readonly tokens: number;
}

export interface RebirthSeedState {
  readonly text: string;
  readonly tokens: number;
  /** Raw messages [0, end) are represented by the seed. */
  readonly end: number;
}

/**
 * Everything the session needs to reproduce its sealed prefix byte for byte. Internal: what a
 * host stores is the saved format (`SavedFoldSession`), written from and read into this.
 */
export interface FoldFreezeState {
  readonly configFingerprint: number;
  /** Dialect the sealed synthetic messages were written in; kept until the next epoch rewrites them. */
  readonly dialect: Dialect;
  /** Raw messages [0, headEnd) open the view verbatim (system prompt, first instruction). */
  readonly headEnd: number;
  readonly seed: RebirthSeedState | null;
  readonly bands: readonly Band[];
  /** The raw tail starts here; everything before it is head, seed or bands. */
  readonly coveredEnd: number;
  /** Combined fingerprint of raw messages [0, coveredEnd), to notice a rewritten history. */
  readonly coveredFingerprint: number;
  /** Raw tail messages shown clipped because one alone would not fit, by raw index. */
  readonly clipped: Readonly<Record<string, ClippedMessage>>;
  readonly lastCallAt: number | null;
  readonly lastViewTokens: number;
  /** How host telemetry relates to the session's own count; shapes every size decision. */
  readonly calibration: Calibration;
  readonly epochs: number;
  readonly hotReuses: number;
  readonly calls: number;
  /** History length at the previous call: recall reads what came after it. */
  readonly seenLength: number;
  /** Recall cards shown since the last epoch, in order; they fold away at the next one. */
  readonly cards: readonly ResidentCard[];
  readonly recall: RecallState | null;
}

export function createFoldFreezeState(configFingerprint = 0): FoldFreezeState {
  return {
    configFingerprint,
    dialect: 'openai',
    headEnd: 0,
    seed: null,
    bands: [],
    coveredEnd: 0,
    coveredFingerprint: 0,
    clipped: {},
    lastCallAt: null,
    lastViewTokens: 0,
    calibration: NEUTRAL_CALIBRATION,
    epochs: 0,
    hotReuses: 0,
    calls: 0,
    seenLength: 0,
    cards: [],
    recall: null,
  };
}

/** True once anything is sealed: a seed, a band, or a head that stays raw. */
export function hasSealedPrefix(state: FoldFreezeState): boolean {
  return state.seed !== null || state.bands.length > 0;
}

/** The parts of a state an epoch replaces. */
export type FoldCommit = Pick<
  FoldFreezeState,
  'dialect' | 'headEnd' | 'seed' | 'bands' | 'coveredEnd' | 'coveredFingerprint' | 'clipped'
>;

/** Seals a new prefix after an epoch. */
export function commitFoldFreeze(
  state: FoldFreezeState,
  commit: FoldCommit,
  now: number,
  viewTokens: number,
): FoldFreezeState {
  return {
    ...state,
    ...commit,
    cards: [],
    lastCallAt: now,
    lastViewTokens: viewTokens,
    epochs: state.epochs + 1,
    calls: state.calls + 1,
  };
}

/** Records a call that reused the sealed prefix. */
export function touchFoldFreeze(
  state: FoldFreezeState,
  now: number,
  viewTokens: number,
  hot: boolean,
): FoldFreezeState {
  return {
    ...state,
    lastCallAt: now,
    lastViewTokens: viewTokens,
    hotReuses: state.hotReuses + (hot ? 1 : 0),
    calls: state.calls + 1,
  };
}
