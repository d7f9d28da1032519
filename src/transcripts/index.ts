/**
 * Transcript readers: the files coding CLIs keep (Claude Code, Codex CLI, Gemini CLI) and plain
 * provider message arrays become provider-shaped histories `FoldSession` reads.
 */
export { readTranscript, readTranscriptLines } from './read-transcript.ts';
export {
  createJsonLinesCollector,
  type JsonLine,
  type JsonLinesCollector,
  type JsonLinesResult,
} from './json-lines.ts';
export { readClaudeCodeJsonl } from './read-claude-code.ts';
export { readCodexRolloutJsonl } from './read-codex-rollout.ts';
export { readGeminiCliChat } from './read-gemini-cli.ts';
export { readMessageArray } from './read-message-array.ts';
export { mergeAdjacentRoles } from './merge-adjacent.ts';
export { TranscriptFormatError } from './transcript-format-error.ts';
export type {
  ReadTranscriptOptions,
  RecordedCall,
  RecordedUsage,
  TranscriptFormat,
  TranscriptIssue,
  TranscriptIssueKind,
  TranscriptMetadata,
  TranscriptReadResult,
} from './types.ts';
