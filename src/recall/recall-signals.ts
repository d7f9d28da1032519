import { findIdentifiers } from '../text/find-identifiers.ts';
import { toolFamily } from '../fold/tool-family.ts';
import type { CanonicalMessage, ToolCall } from '../messages/types.ts';
import { backupCopies, callTouches } from './call-touches.ts';
import { findPathMentions } from './path-mentions.ts';
import { stripHeredocBodies } from './shell-touches.ts';

/** `backup-copy`: the call copied or moved the file aside under a backup name, as an agent does just before replacing it. */
export type RecallSignalSource = 'backup-copy' | 'edit-target' | 'tool-argument' | 'user-text';

export interface RecallSignal {
  /** A normalised path, or an identifier exactly as written. */
  readonly value: string;
  readonly source: RecallSignalSource;
  /** Newest message that carried it. */
  readonly messageIndex: number;
}

/** What the newest activity touched, newest first, each value once. */
export interface RecallSignals {
  readonly paths: readonly RecallSignal[];
  readonly identifiers: readonly RecallSignal[];
  /** The messages read: `[from, to)`. */
  readonly from: number;
  readonly to: number;
}

// Argument bodies are code being written; their identifiers would trigger recall on every edit.
const BODY_KEYS = new Set([
  'content',
  'file_text',
  'new_string',
  'old_string',
  'new_str',
  'old_str',
  'new_source',
  'text',
  'edits',
  'code',
  'patch',
  'diff',
]);
const SOURCE_RANK: Record<RecallSignalSource, number> = {
  'backup-copy': 0,
  'edit-target': 1,
  'tool-argument': 2,
  'user-text': 3,
};

function argumentText(call: ToolCall): string {
  const parts: string[] = [];
  const walk = (value: unknown, key: string): void => {
    if (BODY_KEYS.has(key)) return;
    if (typeof value === 'string') parts.push(toolFamily(call.name) === 'bash' ? stripHeredocBodies(value) : value);
    else if (Array.isArray(value)) value.forEach((item) => walk(item, key));
    else if (value !== null && typeof value === 'object')
      for (const [child, item] of Object.entries(value)) walk(item, child);
  };
  walk(call.input, '');
  return parts.join('\n');
}

/**
 * Paths and identifiers the newest activity (`messages[from..]`) touched: the user's words, the
 * tool calls' arguments, and the files being edited. Tool results are not signals: output names
 * many files the agent never turns to.
 */
export function extractRecallSignals(messages: readonly CanonicalMessage[], from: number): RecallSignals {
  const start = Math.max(0, Math.min(messages.length, Math.floor(from)));
  const paths = new Map<string, RecallSignal>();
  const identifiers = new Map<string, RecallSignal>();
  const note = (into: Map<string, RecallSignal>, value: string, source: RecallSignalSource, messageIndex: number) => {
    const known = into.get(value);
    // the newest mention wins; at the same message the stronger source does
    if (
      known === undefined ||
      messageIndex > known.messageIndex ||
      (messageIndex === known.messageIndex && SOURCE_RANK[source] < SOURCE_RANK[known.source])
    ) {
      into.set(value, { value, source, messageIndex });
    }
  };
  const noteIdentifiers = (text: string, source: RecallSignalSource, messageIndex: number) => {
    for (const identifier of findIdentifiers(text))
      if (identifier.kind !== 'path') note(identifiers, identifier.value, source, messageIndex);
  };
  for (let i = start; i < messages.length; i++) {
    const message = messages[i];
    if (message.isTurnBoundary) {
      for (const path of findPathMentions(message.text, true)) note(paths, path, 'user-text', message.index);
      noteIdentifiers(message.text, 'user-text', message.index);
    }
    for (const call of message.toolCalls) {
      for (const touch of callTouches(call))
        note(paths, touch.path, touch.how === 'read' ? 'tool-argument' : 'edit-target', message.index);
      for (const path of backupCopies(call)) note(paths, path, 'backup-copy', message.index);
      noteIdentifiers(argumentText(call), 'tool-argument', message.index);
    }
  }
  return {
    paths: [...paths.values()].sort(newestFirst),
    identifiers: [...identifiers.values()].sort(newestFirst),
    from: start,
    to: messages.length,
  };
}

/**
 * Only the files the newest activity copied aside under a backup name (see `backupCopies`): the
 * default lane's signals, read without the identifier and mention scans the full lane needs.
 */
export function extractRewriteSignals(messages: readonly CanonicalMessage[], from: number): RecallSignals {
  const start = Math.max(0, Math.min(messages.length, Math.floor(from)));
  const paths = new Map<string, RecallSignal>();
  for (let i = start; i < messages.length; i++) {
    for (const call of messages[i].toolCalls)
      for (const path of backupCopies(call))
        paths.set(path, { value: path, source: 'backup-copy', messageIndex: messages[i].index });
  }
  return { paths: [...paths.values()].sort(newestFirst), identifiers: [], from: start, to: messages.length };
}

const newestFirst = (a: RecallSignal, b: RecallSignal) =>
  b.messageIndex - a.messageIndex || SOURCE_RANK[a.source] - SOURCE_RANK[b.source];
