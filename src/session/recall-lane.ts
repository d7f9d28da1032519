import type { Transcript, TokenCounter } from '../messages/transcript.ts';
import { buildFoldIndex, type FoldIndex } from '../recall/fold-index.ts';
import { buildFoldRecallContext } from '../recall/build-fold-recall-context.ts';
import { extractRecallSignals, extractRewriteSignals } from '../recall/recall-signals.ts';
import type { RecallConfig } from '../recall/recall-config.ts';
import type { RecallState } from '../recall/recall-state.ts';
import type { ResidentCard } from '../recall/resident-card.ts';
import { syntheticMessageTokens } from '../messages/synthetic-tokens.ts';

export interface RecallStep {
  readonly cards: readonly ResidentCard[];
  readonly state: RecallState;
  readonly withheld: number;
}

/**
 * What a lane answers: `all` touches of folded paths and identifiers (the `recall` option), or
 * only `rewrites`, a file copied aside just before it is replaced (on by default: one card, and
 * only when that happens).
 */
export type RecallMode = 'all' | 'rewrites';

/**
 * A rewrite needs one card, the file's last whole view, and no residency: passes run only when a
 * file is copied aside, and the card stays in the view until the next epoch anyway.
 */
const REWRITE_RECALL: Partial<RecallConfig> = { maxCards: 1, residencyCalls: 0 };

/**
 * Recall for one session: a page table of what is folded, rebuilt only when the folded span
 * changes, and cards for the paths and identifiers the newest messages touch again.
 */
export class RecallLane {
  private index: FoldIndex | null = null;
  private indexKey = '';
  private readonly config: Partial<RecallConfig>;

  constructor(
    config: Partial<RecallConfig>,
    private readonly countTokens: TokenCounter,
    private readonly mode: RecallMode = 'all',
  ) {
    this.config = mode === 'rewrites' ? { ...config, ...REWRITE_RECALL } : config;
  }

  get pagesEverything(): boolean {
    return this.mode === 'all';
  }

  /** Drops the page table: a failed call may have built it over a history the session does not keep. */
  forget(): void {
    this.index = null;
    this.indexKey = '';
  }

  /**
   * Cards for messages [from, end) that fit in `roomTokens`. Cards attach after the newest
   * message only when it leaves no call waiting for its result, so pairing stays valid.
   */
  step(
    transcript: Transcript,
    folded: readonly [number, number],
    from: number,
    state: RecallState,
    roomTokens: number,
    now: number,
  ): RecallStep {
    const end = transcript.length;
    const last = transcript.messages[end - 1];
    if (folded[1] <= folded[0] || from >= end || !last || !transcript.endsStep || roomTokens <= 0)
      return { cards: [], state, withheld: 0 };
    const signals =
      this.mode === 'all'
        ? extractRecallSignals(transcript.messages, from)
        : extractRewriteSignals(transcript.messages, from);
    // no rewrite in sight: no page table to build, and nothing to remember
    if (this.mode === 'rewrites' && !signals.paths.length) return { cards: [], state, withheld: 0 };
    const key = `${folded[0]}:${folded[1]}`;
    if (!this.index || key !== this.indexKey) {
      this.index = buildFoldIndex(transcript.messages, [folded]);
      this.indexKey = key;
    }
    const totalTokens = Math.min(this.config.totalTokens ?? Number.POSITIVE_INFINITY, roomTokens);
    const context = buildFoldRecallContext(
      this.index,
      signals,
      state,
      { ...this.config, totalTokens, countTokens: this.countTokens },
      now,
    );
    const cards = context.cards.map((card) => ({
      afterIndex: end - 1,
      key: card.key,
      text: card.text,
      tokens: syntheticMessageTokens(this.countTokens, 'user', card.text),
    }));
    // rewrites are rare: a page table kept between them would only hold memory
    if (this.mode === 'rewrites') this.forget();
    let used = 0;
    const fitting = cards.filter((card) => (used += card.tokens) <= roomTokens);
    return { cards: fitting, state: context.state, withheld: context.withheld.length };
  }
}
