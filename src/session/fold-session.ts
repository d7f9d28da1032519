import { LineTokenCache, messageTokensUpperBound, readAheadLines } from '../fold/build-band.ts';
import type { Band } from '../fold/band.ts';
import { resolveFoldConfig, tailCapTokens, type FoldConfig } from '../fold/fold-config.ts';
import { DEFAULT_FREEZE_CONFIG, evaluateFoldFreeze, type FreezeConfig } from '../freeze/evaluate-freeze.ts';
import {
  commitFoldFreeze,
  createFoldFreezeState,
  hasSealedPrefix,
  touchFoldFreeze,
  type EpochReason,
  type FoldFreezeState,
} from '../freeze/freeze-state.ts';
import { decodeSavedState } from '../freeze/decode-saved-state.ts';
import { encodeSavedState } from '../freeze/encode-saved-state.ts';
import { FoldStateError } from '../freeze/fold-state-error.ts';
import { COUNTER_PROBE } from '../freeze/saved-format.ts';
import { FoldOptionsError } from '../messages/fold-input-error.ts';
import { checkedCounter, checkPrepareOptions, checkSessionOptions } from './check-options.ts';
import { Transcript, type TokenCounter } from '../messages/transcript.ts';
import type { ProviderMessage } from '../messages/types.ts';
import { clipProviderMessage, writeSyntheticMessage } from '../messages/write-synthetic.ts';
import { buildSeedFromCanonical } from '../rebirth/raw-rebirth-seed.ts';
import { combineHashes, fnv1a } from '../text/hash.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import type { FoldOutcome, FoldPrepareOptions } from './fold-outcome.ts';
import type { TaskRail } from '../task-rail/types.ts';
import { clipTail } from './clip-tail.ts';
import { RecallLane } from './recall-lane.ts';
import { countedBudget, observeCalibration } from './calibration.ts';
import type { Calibration } from '../freeze/calibration.ts';
import { createRecallState } from '../recall/recall-state.ts';
import { chooseHeadEnd, lastCut, planFold } from './plan-fold.ts';
import { FOLD_ACKNOWLEDGEMENT } from '../fold/fold-acknowledgement.ts';
import { leadingSystemCount } from '../messages/leading-system.ts';
import { syntheticMessageTokens } from '../messages/synthetic-tokens.ts';
import { PendingReceipt, type FoldReceipt } from './fold-receipt.ts';
import type { FoldSessionOptions } from './fold-session-options.ts';
import { MINIMUM_PRESSURE_CEILING_TOKENS } from '../budget/limits.ts';

export type { FoldSessionOptions } from './fold-session-options.ts';

/** Default ceiling when the host names none: large-window models, well under their limit. */
export const DEFAULT_FOLD_PRESSURE_CEILING_TOKENS = 240_000;

export { FOLD_ACKNOWLEDGEMENT } from '../fold/fold-acknowledgement.ts';

/** Fingerprints are unsigned, so a restored state marked with this one never matches a config: it re-seals. */
const UNKNOWN_CONFIG_FINGERPRINT = -1;

/** A rebirth seed takes at most half the room: the other half is for the history that follows it. */
const SEED_FRACTION = 0.5;
/** A rebirth seed is built to this share of its budget: the seed builder counts lines, the message adds its framing. */
const SEED_HEADROOM = 0.95;

/**
 * Receipts `receipts()` keeps by default: enough for a host to look back over the last several
 * epochs, few enough that a session at 10,000 messages stays near 16 MB (bench: session heap).
 */
export const DEFAULT_RECEIPT_LOG_LENGTH = 32;

/**
 * The one stateful orchestrator. `prepare(history)` returns a view of the host's raw history that
 * stays under the ceiling on every call, reuses its sealed prefix byte for byte while it can,
 * and folds older messages into bands when it must.
 */
export class FoldSession {
  readonly config: FoldConfig;
  readonly freezeConfig: FreezeConfig;
  readonly ceiling: number | null;
  private readonly countTokens: TokenCounter;
  private readonly now: () => number;
  private readonly transcript: Transcript;
  private readonly configFingerprint: number;
  private state: FoldFreezeState;
  /** Provider objects of the sealed prefix, rebuilt only at epochs. */
  private prefix: ProviderMessage[] = [];
  private prefixBuilt = false;
  /**
   * The clipped copies the last view showed: a clip stays in the tail for many calls, and cutting
   * it re-scans the text. Only the last view's are kept: a clip folded away is not shown again.
   */
  private clippedCopies = new Map<ProviderMessage, { readonly maxChars: number; readonly copy: ProviderMessage }>();
  private ackTokens = 0;
  private prefixChars = 0;
  private needsVerification: boolean;
  /** The counter's count of a fixed probe: a restored state written under another counter is re-sealed. */
  private readonly counterProbe: number;
  /**
   * The covered fingerprint only serves a restore, so it is worked out at `snapshot()`: the
   * covered messages cannot change before then without an epoch that re-seals them.
   */
  private fingerprintPending = false;
  private readonly recallLane: RecallLane | null;
  private readonly lineTokens: LineTokenCache;
  /** Receipts of this session object's calls that sealed bands (per process: not in snapshots); null when not kept. */
  private readonly receiptLog: PendingReceipt[] | null;
  private readonly receiptLogLength: number;
  /** Messages before this one have had their lines read ahead (see `readAhead`); -1 before the first call. */
  private readAheadEnd = -1;

  constructor(given: FoldSessionOptions = {}) {
    const options = checkSessionOptions(given) as FoldSessionOptions;
    const ceiling =
      options.pressureCeiling ?? options.budget?.pressureCeilingTokens ?? DEFAULT_FOLD_PRESSURE_CEILING_TOKENS;
    if (
      ceiling !== false &&
      !(typeof ceiling === 'number' && Number.isFinite(ceiling) && ceiling >= MINIMUM_PRESSURE_CEILING_TOKENS)
    )
      throw new FoldOptionsError(
        'pressureCeiling',
        `pressureCeiling must be false or a number of tokens ≥ ${String(MINIMUM_PRESSURE_CEILING_TOKENS).replace(/\B(?=(\d{3})+$)/g, ',')}, got ${typeof ceiling === 'string' ? JSON.stringify(ceiling) : String(ceiling)}`,
      );
    this.ceiling = ceiling === false ? null : Math.floor(ceiling);
    this.config = resolveFoldConfig(options.foldConfig);
    const freeze = options.freeze;
    this.freezeConfig =
      freeze === false
        ? { ...DEFAULT_FREEZE_CONFIG, enabled: false }
        : { ...DEFAULT_FREEZE_CONFIG, ...(typeof freeze === 'object' ? freeze : {}) };
    // the transcript checks its own counts (naming the message); every other count goes through the check
    this.countTokens = options.countTokens ? checkedCounter(options.countTokens) : estimateTokens;
    this.now = options.now ?? (() => Date.now());
    this.transcript = new Transcript(options.countTokens ?? estimateTokens);
    this.lineTokens = new LineTokenCache(this.countTokens);
    this.configFingerprint = fnv1a(JSON.stringify([this.config, this.ceiling]));
    this.counterProbe = this.countTokens(COUNTER_PROBE);
    this.state =
      options.restoredState === undefined
        ? createFoldFreezeState(this.configFingerprint)
        : this.restore(options.restoredState);
    this.needsVerification = options.restoredState !== undefined;
    const recall = options.recall;
    this.recallLane =
      recall === false
        ? null
        : recall === undefined
          ? new RecallLane({}, this.countTokens, 'rewrites')
          : new RecallLane(recall === true ? {} : recall, this.countTokens);
    const keep = options.keepReceipts ?? DEFAULT_RECEIPT_LOG_LENGTH;
    this.receiptLogLength = keep === true ? Infinity : keep === false ? 0 : keep;
    this.receiptLog = this.receiptLogLength > 0 ? [] : null;
  }

  /** The saved-format JSON (`SavedFoldSession`) of the session; pass it as `restoredState` to resume exactly. */
  snapshot(): string {
    if (this.fingerprintPending) {
      this.state = { ...this.state, coveredFingerprint: this.coveredFingerprint(this.state.coveredEnd) };
      this.fingerprintPending = false;
    }
    const saved = JSON.stringify(encodeSavedState(this.state, this.counterProbe));
    // never write what `restoredState` refuses (a reload or an eviction would lose the session):
    // a state that does not read back is saved unsealed, to re-seal at its next call
    if (this.restores(saved)) return saved;
    return JSON.stringify(encodeSavedState(unsealed(this.state), this.counterProbe));
  }

  /** Whether a session like this one, given `saved` as its `restoredState`, would take it. */
  private restores(saved: string): boolean {
    try {
      this.restore(saved);
      return true;
    } catch (error) {
      if (error instanceof FoldStateError) return false;
      throw error;
    }
  }

  /**
   * Decodes a saved state and recounts what it sealed with this session's counter. Under the
   * same counter a count that differs is damage (`FoldStateError`); under another counter, or
   * one not recorded (version 1), the counts cannot be trusted, so the prefix is re-sealed.
   */
  private restore(saved: unknown): FoldFreezeState {
    const { state, counterProbe } = decodeSavedState(saved);
    const sameCounter = counterProbe === this.counterProbe;
    if (counterProbe !== null && !sameCounter) return { ...state, configFingerprint: UNKNOWN_CONFIG_FINGERPRINT };
    const mismatch = recountMismatch(state, this.countTokens, this.lineTokens);
    if (mismatch === null) return state;
    if (sameCounter)
      throw new FoldStateError(
        'invalid-field',
        mismatch.field,
        `holds ${mismatch.stored} tokens, but its text counts ${mismatch.counted}`,
      );
    return { ...state, configFingerprint: UNKNOWN_CONFIG_FINGERPRINT };
  }

  /**
   * Fold receipts of the calls of this session object that sealed or merged a band, oldest first:
   * the newest `keepReceipts` of them. Receipts are per process: a session restored from a
   * snapshot lists only the calls it made itself (store receipts next to the snapshot to keep
   * them; they are plain JSON).
   */
  receipts(): FoldReceipt[] {
    return (this.receiptLog ?? []).map((receipt) => receipt.get());
  }

  /** Whether this session pages back every folded path and identifier touched again (`recall: true`), not only files about to be rewritten. */
  get recallEnabled(): boolean {
    return this.recallLane?.pagesEverything ?? false;
  }

  get telemetry(): Pick<FoldFreezeState, 'epochs' | 'hotReuses' | 'calls'> {
    return { epochs: this.state.epochs, hotReuses: this.state.hotReuses, calls: this.state.calls };
  }

  /**
   * The view of `history` for the next model call. Transactional: when it throws (bad input, a
   * bad option, a counter that fails), the session is exactly as it was before the call.
   */
  prepare(history: readonly ProviderMessage[], options?: FoldPrepareOptions): FoldOutcome {
    const checked = checkPrepareOptions(options);
    const saved = {
      state: this.state,
      prefix: this.prefix,
      prefixBuilt: this.prefixBuilt,
      ackTokens: this.ackTokens,
      prefixChars: this.prefixChars,
      needsVerification: this.needsVerification,
      fingerprintPending: this.fingerprintPending,
    };
    try {
      const outcome = this.prepareChecked(history, checked);
      this.transcript.commit();
      return outcome;
    } catch (error) {
      ({
        state: this.state,
        prefix: this.prefix,
        prefixBuilt: this.prefixBuilt,
        ackTokens: this.ackTokens,
        prefixChars: this.prefixChars,
        needsVerification: this.needsVerification,
        fingerprintPending: this.fingerprintPending,
      } = saved);
      this.transcript.rollback();
      this.recallLane?.forget();
      throw error;
    }
  }

  private prepareChecked(history: readonly ProviderMessage[], options: FoldPrepareOptions): FoldOutcome {
    const measured = options.measuredInputTokens;
    let changedAt = this.transcript.sync(history);
    if (this.needsVerification) {
      // a fresh transcript reads as all new: what matters is whether it holds what the state
      // sealed. When it does not, the session answers as the live one would over that history:
      // the sealed prefix changed (any index before it will do), everything else kept
      changedAt = this.restoredHistoryMatches() ? -1 : 0;
      this.needsVerification = false;
    }
    // a restored session knows only how long the history was, so a shrink is all either may act on
    if (this.transcript.length < this.state.seenLength) this.forgetTailFrom(this.transcript.length);
    const transcript = this.transcript;
    this.readAhead(changedAt);
    const now = this.now();
    const calibration = this.calibrate(measured);
    const ceiling = this.ceiling;
    const limit =
      ceiling === null
        ? Number.POSITIVE_INFINITY
        : countedBudget(calibration, ceiling * (1 - this.config.safetyFraction));
    if (!this.prefixBuilt) this.rebuildPrefix();

    const reusedTokens =
      this.prefixTokens() +
      transcript.tokensBetween(this.state.coveredEnd, transcript.length) -
      this.clipSavings() +
      this.cardTokens();
    const decision = evaluateFoldFreeze(
      this.state,
      {
        changedAt,
        // a restore over a changed history is a boundary change here, as for the live session
        restoredMismatch: false,
        configFingerprint: this.configFingerprint,
        viewTokens: changedAt >= 0 && changedAt < this.state.coveredEnd ? Number.POSITIVE_INFINITY : reusedTokens,
        foldAtTokens: limit,
        ceilingTokens: ceiling === null ? Number.POSITIVE_INFINITY : countedBudget(calibration, ceiling),
        tailChars: this.tailChars(),
        // a tail that is only the live step has nothing to fold: it never triggers an epoch of its own
        tailTokens:
          lastCut(transcript, this.state.coveredEnd) > this.state.coveredEnd
            ? transcript.tokensBetween(Math.min(this.state.coveredEnd, transcript.length), transcript.length)
            : 0,
        tailCapTokens: tailCapTokens(this.config, ceiling) / calibration.factor,
        alwaysOn: this.config.alwaysOn === true,
        now,
        hardEpoch: options.hardEpoch === true,
        measuredAtCeiling: ceiling !== null && measured !== undefined && measured >= ceiling,
      },
      this.freezeConfig,
    );
    let outcome: FoldOutcome;
    if (decision.action === 'reuse') {
      const hot = this.state.calls > 0;
      this.state = touchFoldFreeze(this.state, now, reusedTokens, hot);
      const added = this.recallCards(now, limit);
      outcome = this.outcome(history, hot, undefined, false, added);
    } else if (decision.reason === 'hard-epoch')
      outcome = this.hardEpoch(history, now, limit, options.hardEpochSeed, options.taskRail);
    else outcome = this.refold(history, decision.reason, decision.rebuild, now, limit, options);
    this.state = { ...this.state, seenLength: transcript.length };
    return outcome;
  }

  /**
   * Reads the lines and phrases of the messages this call appended, as a fold would read them:
   * each call pays for its own new messages, so a fold over a long stretch only places and values
   * lines already read (its latency is what an edge host's CPU allowance caps). The history a
   * session object first sees (a restored session's, say) and the messages re-read after a
   * rewrite are left to the fold that needs them, as before, so no call reads a whole history
   * it may never fold. Output is unchanged: the caches hold pure functions of the messages.
   */
  private readAhead(changedAt: number): void {
    const transcript = this.transcript;
    if (this.ceiling === null || changedAt >= 0 || this.readAheadEnd < 0 || this.readAheadEnd > transcript.length) {
      this.readAheadEnd = transcript.length;
      return;
    }
    for (let i = this.readAheadEnd; i < transcript.length; i++) readAheadLines(transcript.messages[i]);
    this.readAheadEnd = transcript.length;
    void transcript.phrases;
  }

  /**
   * The history shrank to `index` messages: recall cards pinned after messages that are gone and
   * clips of them no longer apply (they would point past the history, and the saved state would
   * refuse them). The sealed prefix is untouched.
   */
  private forgetTailFrom(index: number): void {
    const state = this.state;
    const cards = state.cards.filter((card) => card.afterIndex < index);
    const clipped = Object.fromEntries(Object.entries(state.clipped).filter(([at]) => Number(at) < index));
    if (cards.length === state.cards.length && Object.keys(clipped).length === Object.keys(state.clipped).length)
      return;
    this.state = { ...state, cards, clipped, seenLength: index };
  }

  /** Adds recall cards for what the newest messages touch again; returns how many. */
  private recallCards(now: number, limit: number): number {
    const state = this.state;
    if (!this.recallLane || !hasSealedPrefix(state)) return 0;
    const from = Math.min(state.seenLength, this.transcript.length);
    const room = Math.floor(limit - state.lastViewTokens);
    const step = this.recallLane.step(
      this.transcript,
      [state.headEnd, state.coveredEnd],
      from,
      state.recall ?? createRecallState(),
      room,
      now,
    );
    const tokens = step.cards.reduce((sum, card) => sum + card.tokens, 0);
    this.state = {
      ...state,
      cards: [...state.cards, ...step.cards],
      recall: step.state,
      lastViewTokens: state.lastViewTokens + tokens,
    };
    return step.cards.length;
  }

  private cardTokens(): number {
    return this.state.cards.reduce((sum, card) => sum + card.tokens, 0);
  }

  private refold(
    history: readonly ProviderMessage[],
    reason: EpochReason,
    rebuild: boolean,
    now: number,
    limit: number,
    options: FoldPrepareOptions,
  ): FoldOutcome {
    const transcript = this.transcript;
    const fresh = rebuild || !hasSealedPrefix(this.state);
    const headEnd = fresh ? chooseHeadEnd(transcript, limit, this.config.headFraction) : this.state.headEnd;
    const seed = rebuild ? null : this.state.seed;
    const bands: readonly Band[] = fresh ? [] : this.state.bands;
    const coveredEnd = fresh ? (seed ? seed.end : headEnd) : this.state.coveredEnd;
    const ceilingTokens = Number.isFinite(limit)
      ? limit / (1 - this.config.safetyFraction)
      : transcript.tokensBetween(0, transcript.length);
    const plan = planFold({
      transcript,
      config: this.config,
      countTokens: this.countTokens,
      limitTokens: limit,
      ceilingTokens,
      headEnd,
      seed,
      bands,
      coveredEnd,
      ackTokens: this.ackTokens,
      lineTokens: this.lineTokens,
    });
    const previous = this.state.bands;
    if (plan) {
      this.commit(
        { headEnd, seed, bands: plan.bands, coveredEnd: plan.coveredEnd, clipped: plan.clipped },
        now,
        plan.viewTokens,
      );
      const entry = this.noteReceipt(previous, reason, plan.merged);
      return this.outcome(history, false, reason, plan.merged, this.recallCards(now, limit), entry);
    }
    // even the smallest tail does not fit: clip oversized raw messages of the live step, else rebirth
    const clipped = clipTail(
      transcript,
      { headEnd, seed, bands, coveredEnd },
      limit,
      this.ackTokens,
      this.countTokens,
      this.config,
    );
    if (clipped) {
      this.commit(
        { headEnd, seed, bands: clipped.bands, coveredEnd: clipped.coveredEnd, clipped: clipped.clipped },
        now,
        clipped.viewTokens,
      );
      return this.outcome(history, false, reason, false, 0, this.noteReceipt(previous, reason, false));
    }
    // the fallback rebirth honours the host's seed and task rail like an asked-for one
    return this.hardEpoch(history, now, limit, options.hardEpochSeed, options.taskRail);
  }

  private hardEpoch(
    history: readonly ProviderMessage[],
    now: number,
    limit: number,
    hostSeed: string | undefined,
    taskRail?: TaskRail,
  ): FoldOutcome {
    const transcript = this.transcript;
    // the live message stays out of the head even when it is a system message
    const systems = leadingSystemCount(transcript.messages, transcript.length - 1);
    const budget = Number.isFinite(limit) ? limit : transcript.tokensBetween(0, transcript.length);
    const headEnd = transcript.tokensBetween(0, systems) <= this.config.headFraction * budget ? systems : 0;
    const seedBudget = Math.floor(
      Math.min(SEED_FRACTION * budget, budget - transcript.tokensBetween(0, headEnd)) * SEED_HEADROOM,
    );
    const text = hostSeed?.trim()
      ? hostSeed.trim()
      : buildSeedFromCanonical(transcript.messages, {
          budgetTokens: seedBudget,
          countTokens: this.countTokens,
          taskRail,
        }).text;
    const seed = { text, tokens: syntheticMessageTokens(this.countTokens, 'user', text), end: transcript.length };
    this.commit(
      { headEnd, seed, bands: [], coveredEnd: transcript.length, clipped: {} },
      now,
      transcript.tokensBetween(0, headEnd) + seed.tokens,
    );
    return this.outcome(history, false, 'hard-epoch', false);
  }

  private commit(
    parts: Omit<Parameters<typeof commitFoldFreeze>[1], 'coveredFingerprint' | 'dialect'>,
    now: number,
    viewTokens: number,
  ): void {
    this.state = commitFoldFreeze(
      this.state,
      { ...parts, dialect: this.transcript.dialect, coveredFingerprint: 0 },
      now,
      viewTokens,
    );
    this.fingerprintPending = true;
    this.state = { ...this.state, configFingerprint: this.configFingerprint };
    this.rebuildPrefix();
  }

  /** The receipt of this call, when it sealed a band: read now from the lines the band build picked. */
  private noteReceipt(previous: readonly Band[], reason: EpochReason, merged: boolean): PendingReceipt | undefined {
    const transcript = this.transcript;
    const receipt = PendingReceipt.of(
      { call: this.state.calls, epoch: this.state.epochs, epochReason: reason, merged },
      previous,
      this.state.bands,
      transcript.messages,
      (index) => transcript.source(index),
    );
    if (!receipt) return undefined;
    if (this.receiptLog) {
      this.receiptLog.push(receipt);
      // a ring would save the shift, but the log is short and read rarely
      if (this.receiptLog.length > this.receiptLogLength) this.receiptLog.shift();
    }
    return receipt;
  }

  /** Host telemetry (what the provider measured for the previous view) refines the calibration. */
  private calibrate(measured: number | undefined): Calibration {
    if (measured !== undefined && measured > 0 && this.state.lastViewTokens > 0) {
      this.state = {
        ...this.state,
        calibration: observeCalibration(this.state.calibration, this.state.lastViewTokens, measured),
      };
    }
    return this.state.calibration;
  }

  /** A restored state holds for this history when the history still has every message it sealed, unchanged. */
  private restoredHistoryMatches(): boolean {
    const end = this.state.coveredEnd;
    return end <= this.transcript.length && this.coveredFingerprint(end) === this.state.coveredFingerprint;
  }

  private coveredFingerprint(end: number): number {
    let hash = 0;
    for (let i = 0; i < end; i++) hash = combineHashes(hash, this.transcript.fingerprint(i));
    return hash;
  }

  private prefixTokens(): number {
    const state = this.state;
    return (
      this.transcript.tokensBetween(0, Math.min(state.headEnd, this.transcript.length)) +
      (state.seed?.tokens ?? 0) +
      state.bands.reduce((sum, band) => sum + band.tokens + this.ackTokens, 0)
    );
  }

  private clipSavings(): number {
    let saved = 0;
    for (const [index, clip] of Object.entries(this.state.clipped)) {
      const i = Number(index);
      if (i < this.transcript.length) saved += Math.max(0, this.transcript.tokens[i] - clip.tokens);
    }
    return saved;
  }

  private tailChars(): number {
    return this.transcript.charsBetween(
      Math.min(this.state.coveredEnd, this.transcript.length),
      this.transcript.length,
    );
  }

  private rebuildPrefix(): void {
    const state = this.state;
    const dialect = state.dialect;
    const prefix: ProviderMessage[] = [];
    for (let i = 0; i < Math.min(state.headEnd, this.transcript.length); i++) prefix.push(this.transcript.source(i));
    if (state.seed) prefix.push(writeSyntheticMessage(dialect, 'user', state.seed.text));
    const ack = writeSyntheticMessage(dialect, 'assistant', FOLD_ACKNOWLEDGEMENT);
    for (const band of state.bands) prefix.push(writeSyntheticMessage(dialect, 'user', band.text), ack);
    this.prefix = prefix;
    this.prefixBuilt = true;
    this.prefixChars =
      this.transcript.charsBetween(0, Math.min(state.headEnd, this.transcript.length)) +
      (state.seed?.text.length ?? 0) +
      state.bands.reduce((sum, band) => sum + band.text.length + FOLD_ACKNOWLEDGEMENT.length, 0);
    this.ackTokens = syntheticMessageTokens(
      this.countTokens,
      dialect === 'gemini' ? 'model' : 'assistant',
      FOLD_ACKNOWLEDGEMENT,
    );
  }

  private outcome(
    history: readonly ProviderMessage[],
    cacheHot: boolean,
    reason: EpochReason | undefined,
    merged: boolean,
    recalled = 0,
    receipt?: PendingReceipt,
  ): FoldOutcome {
    const outcome = this.outcomeOf(history, cacheHot, reason, merged, recalled);
    // its digests are worked out when read: they cost a pass over the covered messages
    if (receipt) Object.defineProperty(outcome, 'receipt', { enumerable: true, get: () => receipt.get() });
    return outcome;
  }

  private clippedCopy(
    message: ProviderMessage,
    maxChars: number,
    shown: Map<ProviderMessage, { readonly maxChars: number; readonly copy: ProviderMessage }>,
  ): ProviderMessage {
    const known = this.clippedCopies.get(message);
    const copy = known?.maxChars === maxChars ? known.copy : clipProviderMessage(message, maxChars, this.state.dialect);
    shown.set(message, { maxChars, copy });
    return copy;
  }

  private outcomeOf(
    history: readonly ProviderMessage[],
    cacheHot: boolean,
    reason: EpochReason | undefined,
    merged: boolean,
    recalled: number,
  ): FoldOutcome {
    const state = this.state;
    const transcript = this.transcript;
    const tail: ProviderMessage[] = [];
    let card = 0;
    // clips are rare: most calls look none up
    const clips = Object.entries(state.clipped);
    const clipping = clips.length > 0;
    const shown = new Map<ProviderMessage, { readonly maxChars: number; readonly copy: ProviderMessage }>();
    for (let index = state.coveredEnd; index < history.length; index++) {
      const clip = clipping ? state.clipped[String(index)] : undefined;
      tail.push(clip === undefined ? history[index] : this.clippedCopy(history[index], clip.maxChars, shown));
      for (; card < state.cards.length && state.cards[card].afterIndex === index; card++)
        tail.push(writeSyntheticMessage(state.dialect, 'user', state.cards[card].text));
    }
    this.clippedCopies = shown;
    const sealed = hasSealedPrefix(state);
    // prefix + tail even when nothing is sealed: a clipped live step must show clipped
    const messages = [...this.prefix, ...tail];
    const rawTokens = transcript.tokensBetween(0, transcript.length);
    const viewTokens = state.lastViewTokens;
    const foldedFrom = state.seed ? 0 : state.headEnd;
    const coveredEnd = Math.min(state.coveredEnd, transcript.length);
    const rawChars = transcript.charsBetween(0, transcript.length);
    let clippedChars = 0;
    for (const [index, clip] of clips)
      clippedChars += Math.max(0, transcript.charsBetween(Number(index), Number(index) + 1) - clip.maxChars);
    const viewChars = this.prefixChars + transcript.charsBetween(coveredEnd, transcript.length) - clippedChars;
    return {
      messages,
      cacheHot,
      sealedBoundary: sealed ? this.prefix.length - 1 : null,
      foldedRange: sealed && coveredEnd > state.headEnd ? [state.headEnd, coveredEnd] : null,
      stats: {
        ...(reason ? { epochReason: reason } : {}),
        ...(merged ? { merged } : {}),
        cacheHot,
        totalTurns: transcript.turnsBetween(0, transcript.length),
        turnsFolded: sealed ? transcript.turnsBetween(foldedFrom, coveredEnd) : 0,
        messagesFolded: sealed ? state.coveredEnd - foldedFrom : 0,
        bands: state.bands.length,
        rawTokens,
        viewTokens,
        rawChars,
        viewChars,
        savingsPercent: rawTokens ? Math.round((1000 * (rawTokens - viewTokens)) / rawTokens) / 10 : 0,
        pressureCeilingTokens: this.ceiling,
        epochs: state.epochs,
        hotReuses: state.hotReuses,
        clippedMessages: Object.keys(state.clipped).length,
        recallCardsAdded: recalled,
        recallCardsResident: state.cards.length,
      },
    };
  }
}

/** The state with nothing sealed: what it kept of the history's shape goes, its counters and calibration stay. */
function unsealed(state: FoldFreezeState): FoldFreezeState {
  return { ...state, headEnd: 0, seed: null, bands: [], coveredEnd: 0, coveredFingerprint: 0, clipped: {}, cards: [] };
}

/** The first sealed piece whose stored token count differs from what `countTokens` gives for its text, or null. */
function recountMismatch(
  state: FoldFreezeState,
  countTokens: TokenCounter,
  lineTokens: LineTokenCache,
): { field: string; stored: number; counted: number } | null {
  const check = (field: string, stored: number, counted: number) =>
    stored === counted ? null : { field, stored, counted };
  if (state.seed) {
    const found = check(
      'state.seed.tokens',
      state.seed.tokens,
      syntheticMessageTokens(countTokens, 'user', state.seed.text),
    );
    if (found) return found;
  }
  for (const [i, band] of state.bands.entries()) {
    const found = check(
      `state.bands[${i}].tokens`,
      band.tokens,
      messageTokensUpperBound('user', band.text, lineTokens),
    );
    if (found) return found;
  }
  for (const [i, card] of state.cards.entries()) {
    const found = check(
      `state.cards[${i}].tokens`,
      card.tokens,
      syntheticMessageTokens(countTokens, 'user', card.text),
    );
    if (found) return found;
  }
  return null;
}
