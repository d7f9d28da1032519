import { fnv1a } from '../text/hash.ts';
import { PhraseIndex } from '../text/phrase-index.ts';
import { argumentValues, countsReasoningIn, plainMessageText } from './plain-text.ts';
import { readDialect } from './detect-dialect.ts';
import { FoldInputError } from './fold-input-error.ts';
import { readMessage, ToolCallLedger } from './read-message.ts';
import type { CanonicalMessage, Dialect, ProviderMessage } from './types.ts';
import { stableJson } from '../text/stable-json.ts';

export type TokenCounter = (text: string) => number;

/**
 * The canonical transcript of a growing history, read incrementally: a call that only appends
 * reads only the new messages. Each message is fingerprinted once, so a host that rebuilds its
 * message objects between calls (a worker parsing JSON) is recognised as unchanged.
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
  private readonly phraseIndex = new PhraseIndex();
  private phrasesIndexed = 0;
  private sources: unknown[] = [];
  private ledger = new ToolCallLedger();
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
    if (!Array.isArray(history)) throw new FoldInputError(-1, `history must be an array of messages, got ${history === null ? 'null' : typeof history}`);
    const { dialect, certain } = readDialect(history);
    let firstChange = -1;
    // a settled reading of a text-only history changes nothing already read; a real switch does
    if (dialect !== this.dialect && this.messages.length && this.dialectCertain) firstChange = 0;
    else {
      const known = Math.min(this.sources.length, history.length);
      for (let i = 0; i < known; i++) {
        if (history[i] === this.sources[i]) continue;
        if (fingerprintOf(history[i]) === this.fingerprint(i)) {
          this.sources[i] = history[i];
          continue;
        }
        firstChange = i;
        break;
      }
      if (firstChange < 0 && history.length < this.sources.length) firstChange = history.length;
    }
    if (firstChange >= 0) this.reset();
    this.dialect = dialect;
    this.dialectCertain = certain;
    // read into a scratch ledger so that bad input leaves the transcript as it was
    const ledger = this.ledger.clone();
    const added: CanonicalMessage[] = [];
    for (let i = this.messages.length; i < history.length; i++) added.push(readMessage(history[i], i, dialect, ledger));
    const countsReasoning = countsReasoningIn(dialect);
    for (let n = 0; n < added.length; n++) {
      const source = history[this.messages.length];
      const message = added[n];
      // kept for every dialect, so that a text-only start later settled as Responses or AI SDK lines up
      const previous = this.messages[this.messages.length - 1];
      const continuesStep = dialect === 'openai-responses' && message.role === 'assistant' && previous?.role === 'assistant';
      this.stepSafeCuts.push(this.openCalls === 0 && message.toolResults.length === 0 && !continuesStep);
      this.openCalls += message.toolCalls.length - message.toolResults.length;
      this.messages.push(message);
      this.sources.push(source);
      this.fingerprintCache.push(undefined);
      // a Responses step is one model turn split into items: rendered once, as the chat dialects render it, not once per item
      const rendered = plainMessageText(message, countsReasoning);
      const plain = continuesStep ? rendered.slice(message.sourceRole.length + 3) : rendered;
      const tokens = this.countTokens(plain);
      this.tokens.push(tokens);
      this.prefixTokens.push(this.prefixTokens[this.prefixTokens.length - 1] + tokens);
      this.prefixChars.push(this.prefixChars[this.prefixChars.length - 1] + plain.length);
      this.prefixTurns.push(this.prefixTurns[this.prefixTurns.length - 1] + (message.isTurnBoundary ? 1 : 0));
    }
    this.ledger = ledger;
    return firstChange;
  }

  /** Tokens of messages [start, end). */
  tokensBetween(start: number, end: number): number {
    return this.prefixTokens[end] - this.prefixTokens[start];
  }

  /** Phrases of user and assistant words across the history, indexed on first need: only folds use them. */
  get phrases(): PhraseIndex {
    for (; this.phrasesIndexed < this.messages.length; this.phrasesIndexed++) {
      const message = this.messages[this.phrasesIndexed];
      if (message.role === 'assistant' || message.role === 'user') this.phraseIndex.addMessage([message.text, ...message.toolCalls.map((call) => argumentValues(call.input))]);
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

  /** True when message `index` may begin a raw tail: it carries no tool result, so no call is split from its answer. */
  isSafeCut(index: number): boolean {
    if (index >= this.messages.length) return true;
    if (readsInSteps(this.dialect)) return this.stepSafeCuts[index];
    return this.messages[index].toolResults.length === 0;
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
    return this.openCalls === 0 && last.toolCalls.length === 0 && !(this.dialect === 'openai-responses' && source.type === 'reasoning');
  }

  private reset(): void {
    this.messages.length = 0;
    this.fingerprintCache.length = 0;
    this.tokens.length = 0;
    this.prefixTokens.length = 1;
    this.prefixChars.length = 1;
    this.prefixTurns.length = 1;
    this.sources = [];
    this.phraseIndex.clear();
    this.phrasesIndexed = 0;
    this.ledger = new ToolCallLedger();
    this.stepSafeCuts.length = 0;
    this.openCalls = 0;
  }
}

/** Dialects whose cuts follow pending calls instead of one message per step (Responses items, AI SDK messages). */
function readsInSteps(dialect: Dialect): boolean {
  return dialect === 'openai-responses' || dialect === 'ai-sdk';
}

export function fingerprintOf(message: unknown): number {
  return fnv1a(stableJson(message));
}
