import { FoldOptionsError } from '../errors.ts';
import { toolOutcome } from '../fold/tool-outcome.ts';
import { classifyAssistantRegister } from '../glyphs/parse-register-glyph.ts';
import { Transcript } from '../messages/transcript.ts';
import type { CanonicalMessage, ProviderMessage } from '../messages/types.ts';
import { callTouches } from '../recall/call-touches.ts';
import { basenameOf, pathsMatch } from '../text/normalize-path.ts';
import { pairToolCalls, type PairedToolCall } from '../messages/pair-tool-calls.ts';
import { findPathMentions } from '../recall/path-mentions.ts';
import { episodeId } from './episode-id.ts';
import {
  MAX_CONCLUSION_CHARS,
  MAX_REQUEST_CHARS,
  type Episode,
  type EpisodeConclusion,
  type EpisodeFile,
  type EpisodeOutcome,
  type FileTouch,
} from './types.ts';
import { isRecord } from '../text/is-record.ts';
import { headOf } from '../text/safe-cut.ts';

export interface DeriveEpisodesOptions {
  readonly sessionId: string;
  /**
   * Milliseconds per message index, or a lookup. When absent and the history is provider-shaped,
   * a numeric or ISO `timestamp` / `createdAt` / `created_at` field on a message is used.
   */
  readonly timestamps?: ReadonlyArray<number | null | undefined> | ((index: number) => number | null | undefined);
}

function isCanonical(messages: readonly unknown[]): messages is readonly CanonicalMessage[] {
  return messages.every(
    (message) =>
      isRecord(message) &&
      typeof message.index === 'number' &&
      Array.isArray(message.toolCalls) &&
      Array.isArray(message.toolResults),
  );
}

function providerTimestamp(message: unknown): number | undefined {
  if (!isRecord(message)) return undefined;
  for (const key of ['timestamp', 'createdAt', 'created_at']) {
    const value = message[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string') {
      const parsed = Date.parse(value);
      if (Number.isFinite(parsed)) return parsed;
    }
  }
  return undefined;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = headOf(text, max);
  return `${head}… [+${text.length - head.length} chars]`;
}

const STRENGTH: Record<FileTouch, number> = { read: 0, edited: 1, created: 2 };

/** Paths touched so far in the session, looked up by basename so spelling differences still match. */
class SeenPaths {
  private readonly byBasename = new Map<string, string[]>();

  has(path: string): boolean {
    return (this.byBasename.get(basenameOf(path)) ?? []).some((known) => pathsMatch(known, path));
  }

  add(path: string): void {
    const base = basenameOf(path);
    const list = this.byBasename.get(base);
    if (list === undefined) this.byBasename.set(base, [path]);
    else if (!list.includes(path)) list.push(path);
  }
}

/** Where episodes start: each user turn, then again after a 🏁 verdict when the turn goes on. */
function episodeSpans(messages: readonly CanonicalMessage[]): Array<{ start: number; end: number; request: string }> {
  const turns: Array<{ start: number; end: number; request: string }> = [];
  let start = 0;
  for (let i = 1; i <= messages.length; i++) {
    if (i < messages.length && !messages[i].isTurnBoundary) continue;
    const opener = messages[start];
    turns.push({ start, end: i, request: opener.isTurnBoundary ? opener.text : '' });
    start = i;
  }
  const spans: Array<{ start: number; end: number; request: string }> = [];
  for (const turn of turns) {
    let from = turn.start;
    let verdictSeen = false;
    for (let i = turn.start; i < turn.end; i++) {
      const message = messages[i];
      if (message.role !== 'assistant') continue;
      if (verdictSeen) {
        spans.push({ start: from, end: i, request: turn.request });
        from = i;
        verdictSeen = false;
      }
      if (classifyAssistantRegister(message.text).register === 'verdict') verdictSeen = true;
    }
    spans.push({ start: from, end: turn.end, request: turn.request });
  }
  // a stretch with no assistant or tool activity is a question not yet answered, not work
  return spans.filter((span) =>
    messages
      .slice(span.start, span.end)
      .some((message) => message.role === 'assistant' || message.toolResults.length > 0),
  );
}

function outcomeOf(
  messages: readonly CanonicalMessage[],
  start: number,
  end: number,
  pairs: readonly PairedToolCall[],
  historyLength: number,
): EpisodeOutcome {
  let lastAssistant: CanonicalMessage | undefined;
  for (let i = end - 1; i >= start && lastAssistant === undefined; i--)
    if (messages[i].role === 'assistant') lastAssistant = messages[i];
  const closingRegister = lastAssistant ? classifyAssistantRegister(lastAssistant.text).register : null;
  if (closingRegister === 'verdict') return 'succeeded';
  const last = messages[end - 1];
  const yielded = last.role === 'assistant' && last.toolCalls.length === 0 && last.text.trim() !== '';
  if (!yielded) return end >= historyLength ? 'open' : 'abandoned';
  if (closingRegister === 'blocked') return 'failed';
  const first = messages[start].index;
  const answered = pairs.filter(
    (pair) => pair.messageIndex >= first && pair.messageIndex <= last.index && pair.result !== null,
  );
  const final = answered[answered.length - 1];
  if (final?.result && toolOutcome([final.result]).status === 'error') return 'failed';
  return 'succeeded';
}

function conclusionPaths(text: string, files: readonly EpisodeFile[]): string[] {
  const named = findPathMentions(text, true).map(
    (mention) => files.find((file) => pathsMatch(file.path, mention))?.path ?? mention,
  );
  if (named.length) return [...new Set(named)];
  const changed = files.filter((file) => file.how !== 'read').map((file) => file.path);
  return changed.length ? changed : files.map((file) => file.path);
}

/**
 * Seals a history into episodes (see the model in `types.ts`). Deterministic: the same messages,
 * session id and timestamps give the same episodes, ids included.
 */
export function deriveEpisodesFromMessages(
  history: readonly ProviderMessage[] | readonly CanonicalMessage[],
  options: DeriveEpisodesOptions,
): Episode[] {
  if (typeof options?.sessionId !== 'string' || options.sessionId === '')
    throw new FoldOptionsError(
      'sessionId',
      `deriveEpisodesFromMessages needs a non-empty string sessionId, got ${JSON.stringify(options?.sessionId)}`,
    );
  if (!history.length) return [];
  let messages: readonly CanonicalMessage[];
  let timeOf: (index: number) => number | undefined;
  if (isCanonical(history)) {
    messages = history;
    timeOf = () => undefined;
  } else {
    const transcript = new Transcript(() => 0);
    transcript.sync(history as readonly ProviderMessage[]);
    messages = transcript.messages;
    timeOf = (index) => providerTimestamp(history[index]);
  }
  const given = options.timestamps;
  if (given !== undefined) {
    timeOf = (index) => {
      const value = typeof given === 'function' ? given(index) : given[index];
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    };
  }
  const pairs = pairToolCalls(messages);
  const seen = new SeenPaths();
  const episodes: Episode[] = [];
  for (const span of episodeSpans(messages)) {
    const files = new Map<string, FileTouch>();
    for (let i = span.start; i < span.end; i++) {
      for (const call of messages[i].toolCalls) {
        for (const touch of callTouches(call)) {
          const how: FileTouch =
            touch.how === 'read' ? 'read' : touch.how === 'written' && !seen.has(touch.path) ? 'created' : 'edited';
          const known = files.get(touch.path);
          if (known === undefined || STRENGTH[how] > STRENGTH[known]) files.set(touch.path, how);
          seen.add(touch.path);
        }
      }
    }
    const fileList: EpisodeFile[] = [...files].map(([path, how]) => ({ path, how }));
    const conclusions: EpisodeConclusion[] = [];
    for (let i = span.start; i < span.end; i++) {
      const message = messages[i];
      if (message.role !== 'assistant' || message.text.trim() === '') continue;
      const register = classifyAssistantRegister(message.text);
      const closesTurn = i === span.end - 1 && message.toolCalls.length === 0 && register.register === null;
      const kind =
        register.register === 'verdict' || register.register === 'hazard'
          ? register.register
          : closesTurn
            ? 'answer'
            : null;
      if (kind === null) continue;
      conclusions.push({
        kind,
        text: clip(message.text, MAX_CONCLUSION_CHARS),
        messageIndex: message.index,
        paths: conclusionPaths(message.text, fileList),
      });
    }
    const times = [];
    for (let i = span.start; i < span.end; i++) {
      const at = timeOf(messages[i].index);
      if (at !== undefined) times.push(at);
    }
    episodes.push({
      id: episodeId(options.sessionId, messages[span.start].index),
      sessionId: options.sessionId,
      request: clip(span.request, MAX_REQUEST_CHARS),
      files: fileList,
      conclusions,
      outcome: outcomeOf(messages, span.start, span.end, pairs, messages.length),
      span: {
        startIndex: messages[span.start].index,
        endIndex: messages[span.end - 1].index + 1,
        ...(times.length ? { startedAt: times[0], endedAt: times[times.length - 1] } : {}),
      },
    });
  }
  return episodes;
}
