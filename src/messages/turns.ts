import { Transcript } from './transcript.ts';
import { readMessage } from './read-message.ts';
import { ToolCallLedger, type AnsweredCall } from './tool-call-ledger.ts';
import { detectDialect } from './dialects/detect-dialect.ts';
import type { CanonicalMessage, Dialect, ProviderMessage, Turn } from './types.ts';

/** Whether a message starts a turn: real user text, not tool results and not warpfold's own synthetic text. */
export function isUserTurnBoundary(message: ProviderMessage, dialect = detectDialect([message])): boolean {
  return readMessage(message, 0, dialect, new PermissiveLedger()).isTurnBoundary;
}

/** Reads one message out of context (its results pair with anything): for measuring a copy of a message already read. */
export function readDetachedMessage(message: ProviderMessage, index: number, dialect: Dialect): CanonicalMessage {
  return readMessage(message, index, dialect, new PermissiveLedger());
}

/** A ledger that pairs anything: boundary checks (and clip measurements) look at one message out of context. */
export class PermissiveLedger extends ToolCallLedger {
  override close(callId: string | undefined, name: string | undefined): AnsweredCall {
    return { name: name ?? callId ?? 'tool', ref: '' };
  }
}

/** Turns of a history: each starts at real user text; messages before the first boundary form turn 0. */
export function detectTurns(history: readonly ProviderMessage[]): Turn[] {
  const transcript = new Transcript(() => 0);
  transcript.sync(history);
  const turns: Turn[] = [];
  let start = 0;
  for (let i = 1; i < transcript.length; i++) {
    if (transcript.messages[i].isTurnBoundary) {
      turns.push({ startIndex: start, endIndex: i });
      start = i;
    }
  }
  if (transcript.length) turns.push({ startIndex: start, endIndex: transcript.length });
  return turns;
}
