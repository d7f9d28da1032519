import {
  bandReceiptBody,
  digestOf,
  takeBandRecord,
  type BandReceipt,
  type SealedBandRecord,
} from '../fold/band-receipt.ts';
import type { Band } from '../fold/band.ts';
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

/** A sealed band and the record of its build, until its receipt is read. */
interface SealedBand {
  readonly band: Band;
  readonly record: SealedBandRecord;
}

/**
 * A receipt as the session keeps it: the build records of the bands the call sealed and
 * references to the messages they cover. The receipt itself (a pass over every picked line, and
 * the digests of the covered raw messages) is read when it is first asked for, so a fold that
 * nobody inspects does not pay for it.
 */
export class PendingReceipt {
  private receipt: FoldReceipt | null = null;
  private sealed: readonly SealedBand[] | null;
  private messages: readonly CanonicalMessage[] | null;
  private sources: readonly ProviderMessage[] | null;

  private constructor(
    private readonly head: Omit<FoldReceipt, 'bands'>,
    sealed: readonly SealedBand[],
    private readonly offset: number,
    messages: readonly CanonicalMessage[],
    sources: readonly ProviderMessage[],
  ) {
    this.sealed = sealed;
    this.messages = messages;
    this.sources = sources;
  }

  /** The receipt of a call that sealed `bands` after `previous`; null when it sealed no band this process built. */
  static of(
    call: { call: number; epoch: number; epochReason: EpochReason; merged: boolean },
    previous: readonly Band[],
    bands: readonly Band[],
    messages: readonly CanonicalMessage[],
    source: (index: number) => ProviderMessage,
  ): PendingReceipt | null {
    const kept = new Set(previous);
    const fresh = bands.filter((band) => !kept.has(band));
    const sealed: SealedBand[] = [];
    for (const band of fresh) {
      const record = takeBandRecord(band);
      if (record) sealed.push({ band, record });
    }
    if (!sealed.length) return null;
    const current = new Set(bands);
    const head = {
      format: FOLD_RECEIPT_FORMAT,
      version: FOLD_RECEIPT_VERSION,
      ...call,
      firstBand: bands.indexOf(fresh[0]),
      replaced: previous
        .filter((band) => !current.has(band))
        .map((band) => ({ messages: [band.start, band.end] as const, textDigest: digestOf(fnv1a(band.text)) })),
    } as const;
    const start = sealed[0].band.start;
    const end = sealed[sealed.length - 1].band.end;
    // references to the messages as they are now (the history may change before the receipt is read)
    const covered = messages.slice(start, end);
    const sources: ProviderMessage[] = [];
    for (let i = start; i < end; i++) sources.push(source(i));
    return new PendingReceipt(head, sealed, start, covered, sources);
  }

  get(): FoldReceipt {
    if (!this.receipt) {
      const offset = this.offset;
      const messages = this.messages as readonly CanonicalMessage[];
      const sources = this.sources as readonly ProviderMessage[];
      const bands = (this.sealed as readonly SealedBand[]).map(({ band, record }): BandReceipt => {
        const { textDigest, ...rest } = bandReceiptBody(band, record, (index) => messages[index - offset]);
        let hash = 0;
        for (let i = band.start; i < band.end; i++) hash = combineHashes(hash, fingerprintOf(sources[i - offset]));
        return { ...rest, rawDigest: digestOf(hash), textDigest };
      });
      this.receipt = { ...this.head, bands };
      this.sealed = this.messages = this.sources = null;
    }
    return this.receipt;
  }
}
