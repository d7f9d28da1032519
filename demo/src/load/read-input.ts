/**
 * Turns a dropped, picked or pasted file into a provider-shaped history. Message arrays and the
 * benchmark's `{ messages }` files are read here; CLI transcripts (Claude Code, Codex CLI, Gemini
 * CLI) go through the library's readers. Anything else is refused with an error that names where.
 */
import { detectTurns, FoldInputError, type ProviderMessage } from '../../../src/index.ts';

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
  /** What the input was read as. */
  readonly format: string;
  readonly name: string;
  /** Non-fatal notes from a transcript reader (skipped records and why). */
  readonly notes: string[];
  /** `source` and `license` of a corpus file, when it names them. */
  readonly source?: string;
  readonly license?: string;
}

/** A reader of CLI transcripts: set once the library's readers are loaded (see transcripts.ts). */
export type TranscriptReader = (text: string, fileName: string) => Promise<LoadedHistory | null>;

let transcriptReader: TranscriptReader | null = null;
export function useTranscriptReader(reader: TranscriptReader): void {
  transcriptReader = reader;
}

function checkMessages(messages: unknown[], format: string, name: string): ProviderMessage[] {
  if (messages.length === 0) throw new InputError(name, `${format} holds no messages`);
  messages.forEach((message, index) => {
    if (message === null || typeof message !== 'object' || Array.isArray(message)) throw new InputError(`message ${index}`, `expected a message object, got ${message === null ? 'null' : Array.isArray(message) ? 'an array' : typeof message}`);
    const role = (message as { role?: unknown }).role;
    if (typeof role !== 'string') throw new InputError(`message ${index}`, 'has no "role" string');
  });
  try {
    // the library's own reading of the history: pairing, block shapes, roles
    detectTurns(messages as ProviderMessage[]);
  } catch (error) {
    if (error instanceof FoldInputError) throw new InputError(error.messageIndex < 0 ? name : `message ${error.messageIndex}`, error.problem);
    throw error;
  }
  return messages as ProviderMessage[];
}

function jsonError(text: string, error: unknown): InputError {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  if (position) {
    const offset = Number(position[1]);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    return new InputError(`line ${line}, column ${column}`, `not valid JSON (${message})`);
  }
  return new InputError('the file', `not valid JSON (${message})`);
}

export async function readInput(text: string, name = 'pasted text'): Promise<LoadedHistory> {
  const trimmed = text.trim();
  if (!trimmed) throw new InputError(name, 'is empty');
  if (trimmed.startsWith('[') || (trimmed.startsWith('{') && !isJsonLines(trimmed))) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      // a transcript reader may still know it (a Gemini CLI chat file is JSON of its own shape)
      throw jsonError(trimmed, error);
    }
    if (Array.isArray(value)) return { messages: checkMessages(value, 'the message array', name), format: 'message array', name, notes: [] };
    if (value && typeof value === 'object' && Array.isArray((value as { messages?: unknown }).messages)) {
      const record = value as { messages: unknown[]; source?: unknown; license?: unknown };
      return {
        messages: checkMessages(record.messages, '"messages"', name),
        format: '{ messages } file',
        name,
        notes: [],
        ...(typeof record.source === 'string' ? { source: record.source } : {}),
        ...(typeof record.license === 'string' ? { license: record.license } : {}),
      };
    }
    const read = transcriptReader ? await transcriptReader(trimmed, name) : null;
    if (read) return read;
    throw new InputError(name, 'is JSON but neither a message array nor a { "messages": [...] } object nor a known CLI chat file');
  }
  const read = transcriptReader ? await transcriptReader(trimmed, name) : null;
  if (read) return read;
  return readMessageLines(trimmed, name);
}

function isJsonLines(text: string): boolean {
  const firstBreak = text.indexOf('\n');
  if (firstBreak < 0) return false;
  try {
    JSON.parse(text.slice(0, firstBreak));
    return true;
  } catch {
    return false;
  }
}

/** JSON Lines of plain messages, one per line. */
function readMessageLines(text: string, name: string): LoadedHistory {
  const messages: unknown[] = [];
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    try {
      messages.push(JSON.parse(line));
    } catch (error) {
      throw new InputError(`line ${index + 1}`, `not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  });
  return { messages: checkMessages(messages, 'the JSON Lines file', name), format: 'JSON Lines of messages', name, notes: [] };
}
