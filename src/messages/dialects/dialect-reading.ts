import { newPayload, type Payload } from './block-payload.ts';
import { FoldInputError } from '../fold-input-error.ts';
import type { ToolCallLedger } from '../tool-call-ledger.ts';
import type { CanonicalRole, Dialect, ProviderMessage, ToolCall, ToolResult } from '../types.ts';
export { isRecord } from '../../text/is-record.ts';

/** What a dialect reader found in one message; `readMessage` turns it into a canonical message. */
export interface DialectReading {
  readonly role: CanonicalRole;
  /** The role as the plain rendering names it (`tool` for a Responses output item). */
  readonly sourceRole: string;
  readonly text: string[];
  readonly reasoning: string[];
  readonly calls: ToolCall[];
  readonly results: ToolResult[];
  /** Documents, unknown blocks and media, for counting (`block-payload.ts`). */
  readonly payload?: Payload;
}

/** Cuts one long text (head and tail kept, the middle named by a marker). */
export type Clip = (text: string) => string;

/**
 * Everything warpfold knows of one dialect, in one place: how its messages read into canonical
 * form, how warpfold writes a message of its own in it, and how a message's long texts are cut.
 * Signed and opaque parts (thinking signatures, encrypted reasoning) pass every one unchanged.
 */
export interface DialectCodec {
  /** Reads one message, already checked to be an object of safe depth, pairing results through the ledger. */
  read(message: ProviderMessage, index: number, ledger: ToolCallLedger): DialectReading;
  /** A message of warpfold's own (a band, a card, an acknowledgement) in this dialect. */
  writeSynthetic(role: 'user' | 'assistant', text: string): ProviderMessage;
  /** A copy with its long texts cut by `clip`; a call keeps its shape. */
  clip(message: ProviderMessage, clip: Clip): ProviderMessage;
}

/** The roles every chat-shaped dialect but the AI SDK's shares; each adds its assistant (and tool) roles. */
export const SHARED_ROLES: ReadonlyArray<readonly [string, CanonicalRole]> = [
  ['system', 'system'],
  ['developer', 'system'],
  ['user', 'user'],
];

/**
 * The canonical role of `raw` in a dialect whose roles are `roles`; any other is refused, naming
 * it. A Map, so a key of Object's prototype (`constructor`, `toString`) is no role.
 */
export function roleIn(
  roles: ReadonlyMap<unknown, CanonicalRole>,
  raw: unknown,
  dialect: Dialect,
  index: number,
): CanonicalRole {
  const role = roles.get(raw);
  if (role === undefined)
    throw new FoldInputError(index, `unknown role ${JSON.stringify(raw)} for the ${dialect} dialect`);
  return role;
}

/** A chat-shaped message's empty reading, its role checked against `roles`, with a payload to count its blocks into. */
export function startReading(
  roles: ReadonlyMap<unknown, CanonicalRole>,
  message: ProviderMessage,
  dialect: Dialect,
  index: number,
): DialectReading & { readonly payload: Payload } {
  return { ...newReading(roleIn(roles, message.role, dialect, index), message.role as string), payload: newPayload() };
}

/** An empty reading of a message with `role`, for a reader to fill. */
export function newReading(role: CanonicalRole, sourceRole: string): DialectReading {
  return { role, sourceRole, text: [], reasoning: [], calls: [], results: [] };
}

/** JSON arguments parsed; a string that is not JSON stays a string (what the model wrote). */
export function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value) ?? '';
}

/** How a value is named in an error: `null`, `an array`, or its type. */
export function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
