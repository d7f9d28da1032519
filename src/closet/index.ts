export { extractVerbatimContextLabel } from './context-label.ts';
export { nominateVerbatim } from './nominate-verbatim.ts';
export { CLOSET_MARK, renderCloset, type ClosetOccurrence, type ClosetOptions } from './render-closet.ts';
