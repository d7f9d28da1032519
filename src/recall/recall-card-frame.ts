/**
 * The frame of a recall card, in one place: the card writer (recall-card.ts) and the code that
 * recognises cards in a text (stripRecallCards) share these delimiters.
 */
export const RECALL_CARD_OPENING = '[warpfold recall · ';
export const RECALL_CARD_CLOSING = '[end warpfold recall]';

/** The first line of a card: the opening, what triggered it, where it came from. */
export function recallCardHeader(key: string, messageIndex: number): string {
  return `${RECALL_CARD_OPENING}${key} · from message ${messageIndex}]`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A whole card as `renderRecallCard` writes it (recall-card.ts): a header line, then anything up to the closing line. */
const CARD_BLOCK = new RegExp(
  `${escapeRegExp(RECALL_CARD_OPENING)}[^\\n]*\\][\\s\\S]*?${escapeRegExp(RECALL_CARD_CLOSING)}\\n?`,
  'g',
);

/**
 * Removes recall cards from a text. A host appends cards to tool results; once those fold,
 * indexing them again would recall recalls.
 */
export function stripRecallCards(text: string): string {
  return text.includes(RECALL_CARD_OPENING) ? text.replace(CARD_BLOCK, '') : text;
}
