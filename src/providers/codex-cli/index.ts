/** Codex CLI pack (pure): a folded Responses item seed for `thread/inject_items`, and when to rebuild from measured usage. */
export {
  buildCodexSeedItems,
  codexInjectItemsRequest,
  codexSeedRows,
  renderCodexRollout,
  type CodexMessageItem,
  type CodexSeedRow,
} from './codex-seed.ts';
export {
  CODEX_CONTEXT_WINDOW_SHARE,
  codexReconstructionDue,
  type CodexReconstructionDecision,
  type CodexReconstructionReason,
} from './reconstruction-due.ts';
