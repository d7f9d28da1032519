/** Describes a view against the raw history: which items are raw messages, which are bands (and which receipt wrote them). */
import { FOLD_ACKNOWLEDGEMENT } from '../../../src/fold/index.ts';
import type { FoldOutcome, FoldReceipt, ProviderMessage } from '../../../src/index.ts';
import { contentText } from '../../../src/tokens/index.ts';
import { renderedMessage, textTokens, type BaselineMessage } from '../../../src/baselines/index.ts';
import type { ViewItem } from './protocol.ts';

function syntheticText(message: ProviderMessage): string {
  const record = message as { content?: unknown; parts?: unknown };
  return contentText(record.content ?? record.parts);
}

export interface ReceiptIndex {
  /** Band text digest → [receipt index, band index within it]. */
  readonly byDigest: ReadonlyMap<string, readonly [number, number]>;
}

export function indexReceipts(receipts: readonly FoldReceipt[]): ReceiptIndex {
  const byDigest = new Map<string, readonly [number, number]>();
  receipts.forEach((receipt, r) => receipt.bands.forEach((band, b) => byDigest.set(band.textDigest, [r, b])));
  return { byDigest };
}

/** FNV-1a like the library's receipts, so a band in the view finds its receipt by text. */
function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `fnv1a32:${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

export function describeView(
  outcome: FoldOutcome,
  positions: ReadonlyMap<ProviderMessage, number>,
  receipts: ReceiptIndex,
): ViewItem[] {
  return outcome.messages.map((message): ViewItem => {
    const tokens = textTokens(renderedMessage(message as BaselineMessage));
    const index = positions.get(message);
    if (index !== undefined) return { kind: 'raw', index, tokens };
    const text = syntheticText(message);
    if (text.startsWith('[warpfold fold')) {
      const found = receipts.byDigest.get(digest(text));
      return { kind: 'band', text, tokens, receipt: found ? found[0] : -1, band: found ? found[1] : -1 };
    }
    if (text.trim() === FOLD_ACKNOWLEDGEMENT) return { kind: 'ack', text, tokens };
    if (text.startsWith('[warpfold rebirth')) return { kind: 'seed', text, tokens };
    if (text.startsWith('[warpfold recall')) return { kind: 'card', text, tokens };
    // a raw tail message shown clipped (too large to fit alone)
    return { kind: 'synthetic', text, tokens };
  });
}
