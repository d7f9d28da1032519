import { rawTextHolding } from '../messages/raw-text-holding.ts';
import type { IdentifierKind } from '../text/identifier-kinds.ts';
import { findIdentifiers } from '../text/find-identifiers.ts';
import type { CanonicalMessage } from '../messages/types.ts';
import { fnv1a } from '../text/hash.ts';
import type { Band } from './band.ts';
import type { FoldLine, FoldLineKind } from './fold-line.ts';
import { keyArgument } from './key-argument.ts';
import { collapse, UNSCANNED } from './line-templates.ts';
import { lineGroups, renderGroup } from './render-lines.ts';
import { toolFamily } from './tool-family.ts';

/** How a folded tool call reached the band. */
export type ToolCallShown = 'shown' | 'clipped' | 'counted';

export interface ToolCallReceipt {
  /** Raw index of the assistant message that made the call. */
  readonly messageIndex: number;
  readonly id: string;
  readonly name: string;
  /**
   * `shown`: its skeleton line is in the band with the whole key argument; `clipped`: its skeleton
   * line is in the band but part of the key argument is not; `counted`: only the omitted-calls line counts it.
   */
  readonly shown: ToolCallShown;
  /** The skeleton line as the band shows it (absent when only counted). */
  readonly line?: string;
}

export interface IdentifierReceipt {
  readonly value: string;
  readonly kind: IdentifierKind;
  /** Raw index of the newest message the band took it from. */
  readonly messageIndex: number;
  /** On a line the band shows, or only in the Coordinate Closet. */
  readonly via: 'line' | 'closet';
}

export interface LineReceipt {
  /** Raw index of the message the line was read from. */
  readonly messageIndex: number;
  readonly kind: FoldLineKind;
  /** The line exactly as the band shows it. */
  readonly text: string;
  /** False when part of the source line was left out (shown with `…`). */
  readonly whole: boolean;
}

/** What one band holds, from the lines it was built of. JSON-serializable and deterministic. */
export interface BandReceipt {
  /** Raw messages [start, end) the band covers. */
  readonly messages: readonly [number, number];
  /** Tokens of the covered raw messages, and of the band message (the session's counter). */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Every tool call of the covered messages, in order. */
  readonly toolCalls: readonly ToolCallReceipt[];
  /** Identifiers the band conserves verbatim, in first-seen order. */
  readonly identifiers: readonly IdentifierReceipt[];
  /** Every line of the band body, in order (the header, omitted-calls and closet lines aside). */
  readonly lines: readonly LineReceipt[];
  /** Indexes into `lines` of the agent's own words kept (its prose and reasoning). */
  readonly agentLines: readonly number[];
  /** FNV-1a digests (`fnv1a32:` + 8 hex digits) of the covered raw messages and of the band text. */
  readonly rawDigest: string;
  readonly textDigest: string;
}

/** One closet item as the band renders it. */
export interface ClosetEntry {
  readonly value: string;
  readonly kind: IdentifierKind;
  readonly messageIndex: number;
}

/**
 * What the band build already knew when it sealed the band, by reference: recording it costs one
 * object per built band. The session takes the records of the bands it keeps (see
 * `takeBandRecord`); bands built and dropped take theirs with them.
 */
interface BandBuildRecord {
  /** Every candidate line of the band, in order. */
  readonly lines: readonly FoldLine[];
  readonly picked: readonly FoldLine[];
  readonly closet: readonly ClosetEntry[];
  readonly rawTokens: number;
}

// a band is immutable once sealed; a band restored from a snapshot has no record (receipts are per process)
const records = new WeakMap<Band, BandBuildRecord>();

export function recordBandBuild(
  band: Band,
  lines: readonly FoldLine[],
  picked: readonly FoldLine[],
  closet: readonly ClosetEntry[],
  rawTokens: number,
): void {
  records.set(band, { lines, picked, closet, rawTokens });
}

export function digestOf(hash: number): string {
  return `fnv1a32:${hash.toString(16).padStart(8, '0')}`;
}

const AGENT_KINDS = new Set<FoldLineKind>(['assistant', 'reasoning']);

/** Whether every line of a call's key argument is in the band text: a long or multi-line argument may be cut. */
function keyArgumentWhole(argument: string, skeleton: string, collapsedBand: () => string): boolean {
  if (!argument) return true;
  if (skeleton.includes(argument.trim())) return true;
  const band = collapsedBand();
  return argument.split('\n').every((line) => !line.trim() || band.includes(collapse(line)));
}

/** A band's receipt but for the digest of its raw messages, which the session works out on demand. */
export type BandReceiptBody = Omit<BandReceipt, 'rawDigest'>;

/**
 * What a receipt needs of a band's build, kept from the call that seals the band until the
 * receipt is read: the picked lines, and per tool call of the band its skeleton line as shown
 * (null when only counted). The candidate lines go: a merge's run to every line of the history.
 */
export interface SealedBandRecord {
  readonly picked: readonly FoldLine[];
  /** Candidate fragments of each source line the band picked from: a line shown in part is not whole. */
  readonly fragments: ReadonlyMap<number, number>;
  /** The skeleton line each shown call has in the band, by `callKey`: a call absent here is only counted. */
  readonly callLines: ReadonlyMap<string, string>;
  readonly closet: readonly ClosetEntry[];
  readonly rawTokens: number;
}

/** A call by its message and its position among that message's calls. */
const callKey = (messageIndex: number, position: number) => `${messageIndex}:${position}`;

/** The build record of a band this process built, taken once; null for a band restored from a snapshot. */
export function takeBandRecord(band: Band): SealedBandRecord | null {
  const record = records.get(band);
  if (!record) return null;
  records.delete(band);
  const picked = new Set(record.picked);
  const pickedIds = new Set<number>();
  for (const line of record.picked) pickedIds.add(line.lineId);
  const fragments = new Map<number, number>();
  const callLines = new Map<string, string>();
  for (const line of record.lines) {
    if (line.kind === 'call' && line.call !== undefined && picked.has(line))
      callLines.set(callKey(line.messageIndex, line.call), line.text);
    if (pickedIds.has(line.lineId)) fragments.set(line.lineId, (fragments.get(line.lineId) ?? 0) + 1);
  }
  return { picked: record.picked, fragments, callLines, closet: record.closet, rawTokens: record.rawTokens };
}

/**
 * The receipt of a band from its sealed record: which calls, lines and identifiers it shows, read
 * from the lines it was built of. `messageAt` answers for the band's own messages.
 */
export function bandReceiptBody(
  band: Band,
  record: SealedBandRecord,
  messageAt: (index: number) => CanonicalMessage,
): BandReceiptBody {
  const { fragments, callLines } = record;
  const lines: LineReceipt[] = [];
  const agentLines: number[] = [];
  const identifiers = new Map<string, IdentifierReceipt>();
  // a call's skeleton and output lines sit at the call's message: a value read there may come from its answer, later in the band
  const sourceOf = (value: string, from: number) => rawTextHolding(messageAt, value, from, band.end)?.index ?? from;
  for (const group of lineGroups(record.picked)) {
    const first = group[0];
    const text = renderGroup(group);
    const whole =
      group.length === (fragments.get(first.lineId) ?? group.length) && !text.includes('… ') && !text.endsWith(' …');
    if (AGENT_KINDS.has(first.kind)) agentLines.push(lines.length);
    lines.push({ messageIndex: first.messageIndex, kind: first.kind, text, whole });
    // the same rule the band's contents use: a whole scanned line carries its scan, anything else is scanned as shown
    const scanned =
      group.length === 1 &&
      first.identifiers !== UNSCANNED &&
      !first.text.startsWith('… ') &&
      !first.text.endsWith(' …');
    for (const { value, kind } of scanned ? first.identifiers : findIdentifiers(text)) {
      const seen = identifiers.get(value);
      const messageIndex = sourceOf(value, first.messageIndex);
      if (!seen || seen.messageIndex < messageIndex) identifiers.set(value, { value, kind, messageIndex, via: 'line' });
    }
  }
  for (const entry of record.closet)
    if (!identifiers.has(entry.value)) identifiers.set(entry.value, { ...entry, via: 'closet' });

  // collapsed once per band, and only when a call's key argument is not whole in its skeleton line
  let collapsedBand: string | undefined;
  const collapsedText = () => (collapsedBand ??= collapse(band.text));
  const toolCalls: ToolCallReceipt[] = [];
  for (let index = band.start; index < band.end; index++) {
    for (const [position, call] of messageAt(index).toolCalls.entries()) {
      const line = callLines.get(callKey(index, position));
      const base = { messageIndex: index, id: call.id, name: call.name };
      if (!line) toolCalls.push({ ...base, shown: 'counted' });
      else
        toolCalls.push({
          ...base,
          shown: keyArgumentWhole(keyArgument(toolFamily(call.name), call.input), line, collapsedText)
            ? 'shown'
            : 'clipped',
          line,
        });
    }
  }
  return {
    messages: [band.start, band.end],
    tokensBefore: record.rawTokens,
    tokensAfter: band.tokens,
    toolCalls,
    identifiers: [...identifiers.values()],
    lines,
    agentLines,
    textDigest: digestOf(fnv1a(band.text)),
  };
}
