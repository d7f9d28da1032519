import { digestOf, takeBandReceipt, type BandReceipt, type BandReceiptBody } from '../fold/band-receipt.ts';
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

/**
 * A receipt as the session keeps it: the band bodies are read when the call seals them (from the
 * lines the build just picked, which then go); the digests of the covered raw messages, a pass
 * over all of them, are worked out when the receipt is first read.
 */
export class PendingReceipt {
  private receipt: FoldReceipt | null = null;
  private sources: readonly ProviderMessage[] | null;

  private constructor(
    private readonly head: Omit<FoldReceipt, 'bands'>,
    private readonly bodies: readonly BandReceiptBody[],
    private readonly offset: number,
    sources: readonly ProviderMessage[],
  ) {
    this.sources = sources;
  }

  /** The receipt of a call that sealed `bands` after `previous`; null when it sealed no band this process built. */
  static of(call: { call: number; epoch: number; epochReason: EpochReason; merged: boolean }, previous: readonly Band[], bands: readonly Band[], messages: readonly CanonicalMessage[], source: (index: number) => ProviderMessage): PendingReceipt | null {
    const kept = new Set(previous);
    const fresh = bands.filter((band) => !kept.has(band));
    const bodies: BandReceiptBody[] = [];
    for (const band of fresh) {
      const body = takeBandReceipt(band, (index) => messages[index]);
      if (body) bodies.push(body);
    }
    if (!bodies.length) return null;
    const current = new Set(bands);
    const head = {
      format: FOLD_RECEIPT_FORMAT,
      version: FOLD_RECEIPT_VERSION,
      ...call,
      firstBand: bands.indexOf(fresh[0]),
      replaced: previous.filter((band) => !current.has(band)).map((band) => ({ messages: [band.start, band.end] as const, textDigest: digestOf(fnv1a(band.text)) })),
    } as const;
    const start = bodies[0].messages[0];
    const end = bodies[bodies.length - 1].messages[1];
    // references to the provider messages (the host's own objects), for the digests on demand
    const sources: ProviderMessage[] = [];
    for (let i = start; i < end; i++) sources.push(source(i));
    return new PendingReceipt(head, bodies, start, sources);
  }

  get(): FoldReceipt {
    if (!this.receipt) {
      const sources = this.sources as readonly ProviderMessage[];
      const bands = this.bodies.map((body): BandReceipt => {
        let hash = 0;
        for (let i = body.messages[0]; i < body.messages[1]; i++) hash = combineHashes(hash, fingerprintOf(sources[i - this.offset]));
        const { textDigest, ...rest } = body;
        return { ...rest, rawDigest: digestOf(hash), textDigest };
      });
      this.receipt = { ...this.head, bands };
      this.sources = null;
    }
    return this.receipt;
  }
}
