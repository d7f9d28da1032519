/**
 * Turns a dropped, picked or pasted file into a provider-shaped history through the library's
 * transcript readers (`warpfold/transcripts`): OpenAI, Anthropic and Gemini message arrays, the
 * benchmark's `{ messages }` files, Claude Code session JSONL, Codex CLI rollouts and Gemini CLI
 * chat files. Anything else is refused with an error that names where (line, message index).
 */
import { detectTurns } from '../../../src/fold/index.ts';
import { FoldInputError, type ProviderMessage } from '../../../src/index.ts';
import { readTranscript, TranscriptFormatError, type TranscriptIssue } from '../../../src/transcripts/index.ts';
import { messageNumber } from '../ui/dom.ts';

export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    /** Where: `line 3`, `message 12`, or the file as a whole. */
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${where}: ${problem}`);
  }
}

export interface LoadedHistory {
  readonly messages: ProviderMessage[];
  /** What the input was read as (`claude-code-jsonl`, `benchmark-session`, …). */
  readonly format: string;
  readonly name: string;
  /** Lines the reader skipped, and why. */
  readonly notes: string[];
  /** `source` and `license` of a corpus file, when it names them. */
  readonly source?: string;
  readonly license?: string;
}

const describeIssue = (issue: TranscriptIssue) =>
  `line ${issue.line}: ${issue.kind}${issue.recordType ? ` (${issue.recordType})` : ''} — ${issue.detail}`;

/** `source` / `license` fields of a `{ messages }` corpus file, read without parsing a JSONL file whole. */
function corpusFields(text: string): { source?: string; license?: string } {
  if (!text.startsWith('{')) return {};
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    return {
      ...(typeof value.source === 'string' ? { source: value.source } : {}),
      ...(typeof value.license === 'string' ? { license: value.license } : {}),
    };
  } catch {
    return {};
  }
}

export async function readInput(text: string, name = 'pasted text'): Promise<LoadedHistory> {
  const trimmed = text.trim();
  if (!trimmed) throw new InputError(name, 'is empty');
  let read;
  try {
    read = readTranscript(trimmed, { fileName: name });
  } catch (error) {
    if (error instanceof TranscriptFormatError)
      throw new InputError(
        error.line > 0 ? `line ${error.line}` : name,
        `${error.problem}${error.format !== 'unknown' ? ` (read as ${error.format})` : ''}`,
      );
    throw error;
  }
  if (read.messages.length === 0)
    throw new InputError(
      name,
      `read as ${read.format} but holds no messages${read.issues.length ? ` (${read.issues.slice(0, 3).map(describeIssue).join('; ')})` : ''}`,
    );
  try {
    // the library's own reading of the history: roles, block shapes, pairing
    detectTurns(read.messages);
  } catch (error) {
    if (error instanceof FoldInputError)
      throw new InputError(
        error.messageIndex < 0 ? name : `message ${messageNumber(error.messageIndex)}`,
        error.problem,
      );
    throw error;
  }
  return {
    messages: read.messages,
    format: read.format,
    name,
    notes: read.issues.map(describeIssue),
    ...corpusFields(trimmed),
  };
}
