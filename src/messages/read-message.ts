import { DIALECT_CODECS, type DialectReading } from './dialects/index.ts';
import { FoldInputError } from './fold-input-error.ts';
import { checkValueShape } from './value-guard.ts';
import type { CanonicalMessage, Dialect } from './types.ts';
import type { ToolCallLedger } from './tool-call-ledger.ts';
import { exactSize } from '../text/exact-size.ts';
import { isRecord } from '../text/is-record.ts';

/** Text that warpfold itself wrote; never a turn boundary when a host feeds a view back. */
export const SYNTHETIC_MARKER = '[warpfold';

/** Reads one provider message into canonical form, pairing results through the ledger. */
export function readMessage(
  message: unknown,
  index: number,
  dialect: Dialect,
  ledger: ToolCallLedger,
): CanonicalMessage {
  if (!isRecord(message))
    throw new FoldInputError(
      index,
      `expected a message object, got ${message === null ? 'null' : Array.isArray(message) ? 'an array' : typeof message}`,
    );
  // every later walk (arguments, fingerprints, the host's JSON.stringify) may then recurse safely
  checkValueShape(message, index);
  return canonicalMessage(index, DIALECT_CODECS[dialect].read(message, index, ledger));
}

function canonicalMessage(index: number, parts: DialectReading): CanonicalMessage {
  const role = parts.role;
  const text = parts.text.filter((piece) => piece !== '').join('\n');
  const isTurnBoundary = role === 'user' && text.trim() !== '' && !text.startsWith(SYNTHETIC_MARKER);
  const payload = parts.payload;
  return {
    index,
    role,
    sourceRole: parts.sourceRole,
    text,
    reasoning: parts.reasoning.join('\n'),
    // kept for the session's life, one pair per message
    toolCalls: exactSize(parts.calls),
    toolResults: exactSize(parts.results),
    isTurnBoundary,
    // most messages are prose only: the payload fields appear only when there is something to count
    ...(payload?.attachments.length ? { attachments: payload.attachments.join('\n') } : {}),
    ...(payload?.opaque.length ? { opaque: payload.opaque.join('\n') } : {}),
    ...(payload?.mediaTokens ? { mediaTokens: payload.mediaTokens } : {}),
  };
}
