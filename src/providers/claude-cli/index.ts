/**
 * Claude Code pack (pure): build a folded Claude Code session JSONL from rows, find where Claude
 * Code keeps it, and read the stream-json protocol a host loop speaks with `claude --print`.
 */
export {
  buildClaudeCodeSession,
  claudeCodeRows,
  claudeProjectDirectoryName,
  claudeSessionFilePath,
  type ClaudeCodeSession,
  type ClaudeCodeSessionOptions,
} from './claude-code-session.ts';
export { claudeStreamUserLine, readClaudeStreamLine, type ClaudeStreamEvent } from './stream-json.ts';
