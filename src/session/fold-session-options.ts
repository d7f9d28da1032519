import type { FoldConfigOverrides } from '../fold/fold-config.ts';
import type { FreezeConfig } from '../freeze/evaluate-freeze.ts';
import type { SavedFoldSession } from '../freeze/saved-format.ts';
import type { TokenCounter } from '../messages/transcript.ts';
import type { RecallConfig } from '../recall/recall-config.ts';

/** What `new FoldSession(options)` accepts; any other field is refused with a FoldOptionsError naming it. */
export interface FoldSessionOptions {
  /** Prompt budget in tokens; every view stays at or under it. `false` never folds under pressure. */
  readonly pressureCeiling?: number | false;
  /** A resolved context budget (see `resolveContextBudget`); its pressure ceiling is used when `pressureCeiling` is absent. */
  readonly budget?: { readonly pressureCeilingTokens: number };
  /** Token counter for planning (e.g. gpt-tokenizer's o200k `countTokens`); a conservative estimator otherwise. */
  readonly countTokens?: TokenCounter;
  /** Clock in milliseconds; inject it for byte-identical replays. */
  readonly now?: () => number;
  readonly foldConfig?: FoldConfigOverrides;
  readonly freeze?: boolean | Partial<FreezeConfig>;
  /**
   * Page folded content back in: when the newest messages touch a folded path or identifier
   * again, a recall card with the buried tool output is added after them (append-only, so the
   * sealed prefix stays byte-identical) until the next epoch folds it away. `true` (or a config)
   * pages back every touch, which costs more than it keeps (docs/tuning.md). Default: only a file
   * the agent copies aside under a backup name (`cp f.py f.py.bak`), which it is about to replace,
   * comes back as its last whole view. `false`: never.
   */
  readonly recall?: boolean | Partial<RecallConfig>;
  /**
   * A state saved by `snapshot()` (any saved-format version, as JSON text or parsed). A damaged,
   * edited or unknown-version state throws `FoldStateError` naming the field. A state restored
   * over a history that does not hold what it sealed is re-sealed at the first call with
   * `epochReason: 'boundary-changed'`, as the session that saved it would answer; one written
   * under another token counter or fold config is re-sealed with `'config-changed'`.
   */
  readonly restoredState?: string | SavedFoldSession;
  /**
   * How many fold receipts `receipts()` keeps: a number keeps the newest that many, `true` keeps
   * every one, `false` none; `outcome.receipt` is set either way. Default
   * `DEFAULT_RECEIPT_LOG_LENGTH`. A receipt is read only when asked for; until then it holds
   * the band's picked lines and references to the messages it covers, so an unbounded log grows
   * with the history (about 50 MB at 10,000 messages) past what a Durable Object isolate holds.
   * A host that replays a whole transcript for inspection passes `true`.
   */
  readonly keepReceipts?: boolean | number;
}
