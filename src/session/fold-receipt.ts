import { bandReceipt, digestOf, type BandReceipt } from '../fold/band-receipt.ts';
import type { Band } from '../fold/build-band.ts';
import type { EpochReason } from '../freeze/freeze-state.ts';
import { fingerprintOf } from '../messages/transcript.ts';
import type { CanonicalMessage, ProviderMessage } from '../messages/types.ts';
import { combineHashes, fnv1a } from '../text/hash.ts';

export const FOLD_RECEIPT_FORMAT = 'warpfold/fold-receipt';
export const FOLD_RECEIPT_VERSION = 1;

/**
 * The record of one call that sealed or merged bands: what each new band covers and holds, and
 * which sealed bands it replaced. Deterministic and JSON-serializable: a host can store it and
 * answer "where did `src/parser.ts:88` go?" without re-running the fold.
 */
export interface FoldReceipt {
  readonly format: typeof FOLD_RECEIPT_FORMAT;
  readonly version: typeof FOLD_RECEIPT_VERSION;
  /** Which `prepare()` call of the session this was, counting from 1. */
  readonly call: number;
  /** The session's epoch count after this call. */
  readonly epoch: number;
  readonly epochReason: EpochReason;
  /** True when sealed bands were re-folded into the new one. */
  readonly merged: boolean;
  /** Index (among the view's bands) of the first band this call sealed; older bands stayed as they were. */
  readonly firstBand: number;
  /** Bands of the previous view this call re-folded or dropped, by range and text digest. */
  readonly replaced: ReadonlyArray<{ readonly messages: readonly [number, number]; readonly textDigest: string }>;
  /** The bands this call sealed, oldest first. */
  readonly bands: readonly BandReceipt[];
}

/** What a receipt is made of, kept by reference until someone asks for it. */
export interface ReceiptSource {
  readonly call: number;
  readonly epoch: number;
  readonly epochReason: EpochReason;
  readonly merged: boolean;
  readonly previous: readonly Band[];
  readonly bands: readonly Band[];
  /** Canonical and provider messages [offset, offset + length) as the session read them at this call. */
  readonly offset: number;
  readonly messages: readonly CanonicalMessage[];
  readonly sources: readonly ProviderMessage[];
}

/** Digest of raw messages [start, end), from the same stable fingerprints the session uses. */
function rawDigest(source: ReceiptSource, start: number, end: number): string {
  let hash = 0;
  for (let i = start; i < end; i++) hash = combineHashes(hash, fingerprintOf(source.sources[i - source.offset]));
  return digestOf(hash);
}

/** The receipt of a call, or null when it sealed no band this process built. */
export function buildFoldReceipt(source: ReceiptSource): FoldReceipt | null {
  const kept = new Set(source.previous);
  const fresh = source.bands.filter((band) => !kept.has(band));
  if (!fresh.length) return null;
  const bands: BandReceipt[] = [];
  for (const band of fresh) {
    const receipt = bandReceipt(band, (index) => source.messages[index - source.offset], rawDigest(source, band.start, band.end));
    if (receipt) bands.push(receipt);
  }
  if (!bands.length) return null;
  const current = new Set(source.bands);
  return {
    format: FOLD_RECEIPT_FORMAT,
    version: FOLD_RECEIPT_VERSION,
    call: source.call,
    epoch: source.epoch,
    epochReason: source.epochReason,
    merged: source.merged,
    firstBand: source.bands.indexOf(fresh[0]),
    replaced: source.previous.filter((band) => !current.has(band)).map((band) => ({ messages: [band.start, band.end] as const, textDigest: digestOf(fnv1a(band.text)) })),
    bands,
  };
}
