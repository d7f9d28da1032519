import { IDENTIFIER_PATTERNS } from '../text/identifier-kinds.ts';
import { findIdentifiers } from '../text/find-identifiers.ts';

/**
 * Exact identifiers worth conserving verbatim, most opaque kinds first and then by first
 * occurrence, at most `cap` of them.
 */
export function nominateVerbatim(text: string, cap = 40): string[] {
  const rank = new Map(IDENTIFIER_PATTERNS.map((pattern, index) => [pattern.kind, index]));
  return findIdentifiers(text)
    .sort((a, b) => (rank.get(a.kind) ?? 0) - (rank.get(b.kind) ?? 0) || a.offset - b.offset)
    .slice(0, cap)
    .map((identifier) => identifier.value);
}
