export { extractVerbatimContextLabel } from './context-label.ts';
export { IDENTIFIER_PATTERNS, type IdentifierKind } from './identifier-kinds.ts';
export { findIdentifiers, nominateVerbatim, type NominatedIdentifier } from './nominate-verbatim.ts';
export { CLOSET_MARK, renderCloset, renderClosetFrom, type ClosetOccurrence, type ClosetOptions } from './render-closet.ts';
