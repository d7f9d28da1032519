import type { Transcript, TokenCounter } from '../messages/transcript.ts';
import { buildFoldIndex, type FoldIndex } from '../recall/fold-index.ts';
import { buildFoldRecallContext } from '../recall/build-fold-recall-context.ts';
import { extractRecallSignals } from '../recall/recall-signals.ts';
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
 * Recall for one session: a page table of what is folded, rebuilt only when the folded span
 * changes, and cards for the paths and identifiers the newest messages touch again.
 */
export class RecallLane {
  private index: FoldIndex | null = null;
  private indexKey = '';

  constructor(
    private readonly config: Partial<RecallConfig>,
    private readonly countTokens: TokenCounter,
  ) {}

  /** Drops the page table: a failed call may have built it over a history the session does not keep. */
  forget(): void {
    this.index = null;
    this.indexKey = '';
  }

  /**
   * Cards for messages [from, end) that fit in `roomTokens`. Cards attach after the newest
   * message only when it leaves no call waiting for its result, so pairing stays valid.
   */
  step(transcript: Transcript, folded: readonly [number, number], from: number, state: RecallState, roomTokens: number, now: number): RecallStep {
    const end = transcript.length;
    const last = transcript.messages[end - 1];
    if (folded[1] <= folded[0] || from >= end || !last || !transcript.endsStep || roomTokens <= 0) return { cards: [], state, withheld: 0 };
    const key = `${folded[0]}:${folded[1]}`;
    if (!this.index || key !== this.indexKey) {
      this.index = buildFoldIndex(transcript.messages, [folded]);
      this.indexKey = key;
    }
    const signals = extractRecallSignals(transcript.messages, from);
    const totalTokens = Math.min(this.config.totalTokens ?? Number.POSITIVE_INFINITY, roomTokens);
    const context = buildFoldRecallContext(this.index, signals, state, { ...this.config, totalTokens, countTokens: this.countTokens }, now);
    const cards = context.cards.map((card) => ({ afterIndex: end - 1, key: card.key, text: card.text, tokens: syntheticMessageTokens(this.countTokens, 'user', card.text) }));
    let used = 0;
    const fitting = cards.filter((card) => (used += card.tokens) <= roomTokens);
    return { cards: fitting, state: context.state, withheld: context.withheld.length };
  }
}
