/**
 * CLI transcripts (Claude Code, Codex CLI, Gemini CLI) are read by the library's readers
 * (`warpfold/transcripts`), loaded on first need so the page's first chunk stays small.
 */
import { useTranscriptReader } from './read-input.ts';

export function installTranscriptReaders(): void {
  // wired to src/transcripts once that module is in this branch (see the report)
  useTranscriptReader(async () => null);
}
