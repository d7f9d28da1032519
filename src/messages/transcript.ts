import { fnv1a } from '../text/hash.ts';
import { PhraseIndex } from '../text/phrase-index.ts';
import { argumentValues, countsReasoningIn, plainMessageText } from './plain-text.ts';
import { readDialect } from './dialects/detect-dialect.ts';
import { FoldInputError, FoldOptionsError } from './fold-input-error.ts';
import { checkValueShape, MAX_VALUE_DEPTH } from './value-guard.ts';
import { readMessage } from './read-message.ts';
import { ToolCallLedger } from './tool-call-ledger.ts';
import type { CanonicalMessage, Dialect, ProviderMessage } from './types.ts';

export type TokenCounter = (text: string) => number;

/** What a transcript was before its last `sync`, so a failed call can put it back. */
interface SyncUndo {
  readonly length: number;
  readonly dialect: Dialect;
  readonly dialectCertain: boolean;
  readonly ledger: ToolCallLedger;
  /** Copies of the arrays, kept only when the sync re-read the history from the start. */
  readonly before?: {
    readonly messages: CanonicalMessage[];
    readonly fingerprints: Array<number | undefined>;
    readonly tokens: number[];
    readonly prefixTokens: number[];
    readonly prefixChars: number[];
    readonly prefixTurns: number[];
    readonly sources: unknown[];
    readonly stepSafeCuts: boolean[];
  };
  readonly openCalls: number;
}

/** A count the rest of the engine can do arithmetic on, or a typed error naming the message. */
function checkedCount(tokens: unknown, index: number): number {
  if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0)
    throw new FoldOptionsError(
      'countTokens',
      `countTokens must return a non-negative finite number of tokens; it returned ${typeof tokens === 'string' ? JSON.stringify(tokens) : typeof tokens === 'number' ? String(tokens) : typeof tokens} for message ${index}`,
    );
  // fractional counts round up: the view stays under its ceiling and stored counts stay whole
  return Math.ceil(tokens);
}

/**
 * The canonical transcript of a growing history, read incrementally: a call that only appends
 * reads only the new messages. Each message is fingerprinted once, so a host that rebuilds its
 * message objects between calls (a worker parsing JSON) is recognised as unchanged. A sync that
 * throws changes nothing, and `rollback()` undoes the last sync for a caller that failed later.
 */
export class Transcript {
  dialect: Dialect = 'openai';
  /** False while the history could still be either OpenAI or Anthropic (text only). */
  dialectCertain = false;
  readonly messages: CanonicalMessage[] = [];
  private readonly fingerprintCache: Array<number | undefined> = [];
  /** tokens[i]: plain-rendering tokens of message i; prefixTokens[i]: sum over messages before i. */
  readonly tokens: number[] = [];
  readonly prefixTokens: number[] = [0];
  /** Serialized size and turn boundaries as running sums, for O(1) stats. */
  readonly prefixChars: number[] = [0];
  readonly prefixTurns: number[] = [0];
  private phraseIndex = new PhraseIndex();
  private phrasesIndexed = 0;
  private readonly sources: unknown[] = [];
  private ledger = new ToolCallLedger();
  private undo: SyncUndo | null = null;
  /** See `pushStaircase`; `staircaseLength` messages are in it. */
  private readonly staircasePositions: number[] = [];
  private readonly staircaseValues: number[] = [];
  private staircaseLength = 0;
  /**
   * Responses and AI SDK histories: whether a raw tail may start at message i, and calls still
   * unanswered after the last message. A Responses step spreads over several items, and parallel
   * outputs may come in any order, so a cut there needs every earlier call answered.
   */
  private readonly stepSafeCuts: boolean[] = [];
  private openCalls = 0;

  constructor(private readonly countTokens: TokenCounter) {}

  get length(): number {
    return this.messages.length;
  }

  /** Brings the transcript in line with `history`; returns the first index that changed, or -1 when it only grew. */
  sync(history: readonly ProviderMessage[]): number {
    if (!Array.isArray(history))
      throw new FoldInputError(
        -1,
        `history must be an array of messages, got ${history === null ? 'null' : typeof history}`,
      );
    this.undo = null;
    const { dialect, certain } = readDialect(history);
    let firstChange = -1;
    // a settled reading of a text-only history changes nothing already read; a real switch does
    if (dialect !== this.dialect && this.messages.length && this.dialectCertain) firstChange = 0;
    else {
      const known = Math.min(this.sources.length, history.length);
      for (let i = 0; i < known; i++) {
        if (history[i] === this.sources[i]) continue;
        // an equal rebuilt object takes the old one's place: same content, same fingerprint
        if (fingerprintOf(history[i], i) === this.fingerprint(i)) {
          this.sources[i] = history[i];
          continue;
        }
        firstChange = i;
        break;
      }
      if (firstChange < 0 && history.length < this.sources.length) firstChange = history.length;
    }
    // read and count into scratch first: bad input throws here and leaves the transcript as it was
    const from = firstChange >= 0 ? 0 : this.messages.length;
    const ledger = firstChange >= 0 ? new ToolCallLedger() : this.ledger.clone();
    const countsReasoning = countsReasoningIn(dialect);
    const added: CanonicalMessage[] = [];
    const plains: string[] = [];
    const counts: number[] = [];
    const continues: boolean[] = [];
    for (let i = from; i < history.length; i++) {
      const message = readMessage(history[i], i, dialect, ledger);
      // kept for every dialect, so that a text-only start later settled as Responses or AI SDK lines up
      const previous = i > from ? added[i - from - 1] : from > 0 ? this.messages[from - 1] : undefined;
      const continuesStep =
        dialect === 'openai-responses' && message.role === 'assistant' && previous?.role === 'assistant';
      // a Responses step is one model turn split into items: rendered once, as the chat dialects render it, not once per item
      const rendered = plainMessageText(message, countsReasoning);
      const plain = continuesStep ? rendered.slice(message.sourceRole.length + 3) : rendered;
      continues.push(continuesStep);
      added.push(message);
      plains.push(plain);
      counts.push(checkedCount(this.countTokens(plain), i) + (message.mediaTokens ?? 0));
    }
    this.undo = {
      length: this.messages.length,
      dialect: this.dialect,
      dialectCertain: this.dialectCertain,
      ledger: this.ledger,
      ...(firstChange >= 0
        ? {
            before: {
              messages: [...this.messages],
              fingerprints: [...this.fingerprintCache],
              tokens: [...this.tokens],
              prefixTokens: [...this.prefixTokens],
              prefixChars: [...this.prefixChars],
              prefixTurns: [...this.prefixTurns],
              sources: [...this.sources],
              stepSafeCuts: [...this.stepSafeCuts],
            },
          }
        : {}),
      openCalls: this.openCalls,
    };
    if (firstChange >= 0) this.reset();
    this.dialect = dialect;
    this.dialectCertain = certain;
    for (let n = 0; n < added.length; n++) {
      const message = added[n];
      this.stepSafeCuts.push(this.openCalls === 0 && message.toolResults.length === 0 && !continues[n]);
      this.openCalls += message.toolCalls.length - message.toolResults.length;
      this.messages.push(message);
      this.sources.push(history[from + n]);
      this.fingerprintCache.push(undefined);
      this.tokens.push(counts[n]);
      this.prefixTokens.push(this.prefixTokens[this.prefixTokens.length - 1] + counts[n]);
      this.prefixChars.push(this.prefixChars[this.prefixChars.length - 1] + plains[n].length);
      this.prefixTurns.push(this.prefixTurns[this.prefixTurns.length - 1] + (message.isTurnBoundary ? 1 : 0));
      if (this.staircaseLength === from + n) this.pushStaircase(from + n, message);
    }
    this.ledger = ledger;
    return firstChange;
  }

  /** Puts the transcript back as it was before the last `sync` (for a call that failed after it). */
  rollback(): void {
    const undo = this.undo;
    if (!undo) return;
    this.undo = null;
    if (undo.before) {
      const restore = <T>(target: T[], source: readonly T[]) => {
        target.length = 0;
        for (const item of source) target.push(item);
      };
      restore(this.messages, undo.before.messages);
      restore(this.fingerprintCache, undo.before.fingerprints);
      restore(this.tokens, undo.before.tokens);
      restore(this.prefixTokens, undo.before.prefixTokens);
      restore(this.prefixChars, undo.before.prefixChars);
      restore(this.prefixTurns, undo.before.prefixTurns);
      restore(this.sources, undo.before.sources);
      restore(this.stepSafeCuts, undo.before.stepSafeCuts);
    } else {
      this.messages.length = undo.length;
      this.fingerprintCache.length = undo.length;
      this.tokens.length = undo.length;
      this.prefixTokens.length = undo.length + 1;
      this.prefixChars.length = undo.length + 1;
      this.prefixTurns.length = undo.length + 1;
      this.sources.length = undo.length;
      this.stepSafeCuts.length = undo.length;
    }
    this.openCalls = undo.openCalls;
    this.dialect = undo.dialect;
    this.dialectCertain = undo.dialectCertain;
    this.ledger = undo.ledger;
    this.staircaseLength = -1;
    // the phrase index only grows: one that read past the old end is rebuilt on its next use
    if (undo.before || this.phrasesIndexed > undo.length) {
      this.phraseIndex = new PhraseIndex();
      this.phrasesIndexed = 0;
    }
  }

  /** Forgets what `rollback()` would restore: the caller's call succeeded. */
  commit(): void {
    this.undo = null;
  }

  /** Tokens of messages [start, end). */
  tokensBetween(start: number, end: number): number {
    return this.prefixTokens[end] - this.prefixTokens[start];
  }

  /** Phrases of user and assistant words across the history, indexed on first need: only folds use them. */
  get phrases(): PhraseIndex {
    for (; this.phrasesIndexed < this.messages.length; this.phrasesIndexed++) {
      const message = this.messages[this.phrasesIndexed];
      if (message.role === 'assistant' || message.role === 'user')
        this.phraseIndex.addMessage([message.text, ...message.toolCalls.map((call) => argumentValues(call.input))]);
    }
    return this.phraseIndex;
  }

  /** Characters of the plain renderings of messages [start, end). */
  charsBetween(start: number, end: number): number {
    return this.prefixChars[end] - this.prefixChars[start];
  }

  turnsBetween(start: number, end: number): number {
    return this.prefixTurns[end] - this.prefixTurns[start];
  }

  /** Content fingerprint of message `index`, worked out on first need. */
  fingerprint(index: number): number {
    let value = this.fingerprintCache[index];
    if (value === undefined) this.fingerprintCache[index] = value = fingerprintOf(this.sources[index]);
    return value;
  }

  source(index: number): ProviderMessage {
    return this.sources[index] as ProviderMessage;
  }

  /**
   * True when message `index` may begin a raw tail: it carries no tool result, and no message
   * from it on answers a call made before it, so no call is split from its answer (a result may
   * come several messages after its call).
   */
  isSafeCut(index: number): boolean {
    if (index >= this.messages.length) return true;
    if (readsInSteps(this.dialect)) return this.stepSafeCuts[index];
    if (this.messages[index].toolResults.length) return false;
    return this.earliestCallFrom(index) >= index;
  }

  /**
   * Whether a synthetic message may follow the newest one: no call of the last step waits for
   * its result. Responses steps also may not end on a reasoning item, which needs its follower.
   */
  get endsStep(): boolean {
    const last = this.messages[this.messages.length - 1];
    if (!last) return true;
    if (!readsInSteps(this.dialect)) return last.toolCalls.length === 0;
    const source = this.sources[this.sources.length - 1] as ProviderMessage;
    return (
      this.openCalls === 0 &&
      last.toolCalls.length === 0 &&
      !(this.dialect === 'openai-responses' && source.type === 'reasoning')
    );
  }

  /** The earliest message whose call is answered at or after `index`: a binary search of the suffix-minimum staircase. */
  private earliestCallFrom(index: number): number {
    if (this.staircaseLength !== this.messages.length) this.rebuildStaircase();
    const positions = this.staircasePositions;
    let low = 0;
    let high = positions.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (positions[middle] < index) low = middle + 1;
      else high = middle;
    }
    return low < positions.length ? this.staircaseValues[low] : Number.POSITIVE_INFINITY;
  }

  /**
   * The suffix minima of "earliest call this message answers", as a stack whose values rise with
   * position: appending a message pops what it undercuts, so keeping it costs O(1) amortized.
   */
  private pushStaircase(position: number, message: CanonicalMessage): void {
    let earliest = position;
    for (const result of message.toolResults) {
      const dot = result.callRef ? result.callRef.indexOf('.') : -1;
      if (dot > 0) earliest = Math.min(earliest, Number(result.callRef!.slice(0, dot)));
    }
    while (this.staircaseValues.length && this.staircaseValues[this.staircaseValues.length - 1] >= earliest) {
      this.staircaseValues.pop();
      this.staircasePositions.pop();
    }
    this.staircasePositions.push(position);
    this.staircaseValues.push(earliest);
    this.staircaseLength = position + 1;
  }

  /** After a reset or a rollback the staircase is read again from the messages (never on the append path). */
  private rebuildStaircase(): void {
    this.staircasePositions.length = 0;
    this.staircaseValues.length = 0;
    this.staircaseLength = 0;
    for (let i = 0; i < this.messages.length; i++) this.pushStaircase(i, this.messages[i]);
  }

  private reset(): void {
    this.messages.length = 0;
    this.fingerprintCache.length = 0;
    this.tokens.length = 0;
    this.prefixTokens.length = 1;
    this.prefixChars.length = 1;
    this.prefixTurns.length = 1;
    this.sources.length = 0;
    this.phraseIndex = new PhraseIndex();
    this.phrasesIndexed = 0;
    this.staircaseLength = -1;
    this.stepSafeCuts.length = 0;
    this.openCalls = 0;
  }
}

/** Dialects whose cuts follow pending calls instead of one message per step (Responses items, AI SDK messages). */
function readsInSteps(dialect: Dialect): boolean {
  return dialect === 'openai-responses' || dialect === 'ai-sdk';
}

/** Thrown inside `stableJson` when a value is cyclic or too deep; the caller names the field. */
const UNSAFE_VALUE = new FoldInputError(-1, 'a value nests too deep or refers to itself');

/**
 * Order-stable JSON for fingerprints: key order of a rebuilt object must not matter. Recursive but
 * bounded by `MAX_VALUE_DEPTH`, with cycles detected on the current path.
 */
function stableJson(value: unknown, depth: number, onPath: Set<object>): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (depth >= MAX_VALUE_DEPTH || onPath.has(value)) throw UNSAFE_VALUE;
  onPath.add(value);
  let out: string;
  if (Array.isArray(value)) out = `[${value.map((item) => stableJson(item, depth + 1, onPath)).join(',')}]`;
  else {
    const keys = Object.keys(value).sort();
    out = `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key], depth + 1, onPath)}`).join(',')}}`;
  }
  onPath.delete(value);
  return out;
}

/** Content fingerprint of a message; a cyclic or too deep one throws a `FoldInputError` naming message `index` and the field. */
export function fingerprintOf(message: unknown, index = -1): number {
  try {
    return fnv1a(stableJson(message, 0, new Set()));
  } catch (error) {
    if (error === UNSAFE_VALUE) checkValueShape(message, index, '');
    throw error;
  }
}
