/**
 * Node-only helpers (subpath `warpfold/node`, never imported by the core): atomic writers for the
 * CLI formats and host loops that fold Claude Code sessions in place.
 */
export {
  BACKUP_SUFFIX,
  DRY_RUN_SUFFIX,
  writeFileAtomic,
  type AtomicWriteOptions,
  type AtomicWriteResult,
  type WriteMode,
} from './atomic-write.ts';
export { writeClaudeCodeSessionFile, writeCodexRolloutFile, writeGeminiCliChatFile } from './cli-writers.ts';
export {
  ClaudeSessionFolder,
  defaultClaudeHome,
  rowsAfter,
  type ClaudeFoldRecord,
  type ClaudeSessionFolderOptions,
} from './claude-session-folder.ts';
export {
  ClaudeCliError,
  ClaudeCliFoldLoop,
  DEFAULT_FOLD_VIEW_SHARE,
  loopFoldSessionOptions,
  type ClaudeCliFoldLoopOptions,
  type ClaudeTurnResult,
} from './claude-cli-fold-loop.ts';
export {
  ClaudeTmuxFoldLoop,
  DEFAULT_TMUX_POLL_MS,
  DEFAULT_TMUX_SETTLE_MS,
  type ClaudeTmuxFoldLoopOptions,
} from './claude-tmux-fold-loop.ts';
export {
  createFileSystemStore,
  fileSystemDriver,
  type FileSystemDriverOptions,
} from './file-system-driver.ts';
export { startProxy, type ProxyOptions, type RunningProxy } from './proxy/start-proxy.ts';
