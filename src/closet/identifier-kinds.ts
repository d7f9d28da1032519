/** Kinds of exact identifiers the closet conserves, most opaque (least guessable) first. */
export type IdentifierKind =
  | 'uuid'
  | 'hash'
  | 'url'
  | 'path'
  | 'host-port'
  | 'key-value'
  | 'issue-ref'
  | 'error-code'
  | 'version'
  | 'symbol';

export interface IdentifierPattern {
  readonly kind: IdentifierKind;
  readonly pattern: RegExp;
  /** Opaque values are meaningless without a label saying what they are. */
  readonly opaque: boolean;
}

// Order matters: earlier kinds claim their span first, so a UUID is not also read as hashes.
export const IDENTIFIER_PATTERNS: readonly IdentifierPattern[] = [
  { kind: 'uuid', pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, opaque: true },
  { kind: 'url', pattern: /\bhttps?:\/\/[^\s'"`<>()[\]{}]+/g, opaque: false },
  { kind: 'hash', pattern: /\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/g, opaque: true },
  { kind: 'path', pattern: /(?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)+[\w.@+-]+\.[A-Za-z0-9]{1,8}\b|(?<![\w.:/])\/(?:[\w.@+-]+\/)+[\w.@+-]+/g, opaque: false },
  { kind: 'host-port', pattern: /\b(?:[A-Za-z0-9-]+\.)*[A-Za-z0-9_-]+:\d{2,5}\b/g, opaque: false },
  { kind: 'key-value', pattern: /\b[A-Za-z_][\w.-]{0,40}=(?=[\w./:@-]*\d)[\w./:@-]{1,80}/g, opaque: false },
  { kind: 'issue-ref', pattern: /(?<![\w&#])(?:[\w.-]+\/[\w.-]+)?#\d{1,8}\b|\b(?:GH|PR)-\d{1,8}\b/g, opaque: false },
  { kind: 'error-code', pattern: /\b(?:E[A-Z]{3,12}|ERR_[A-Z0-9_]{3,40}|[A-Z]{1,5}\d{3,6})\b/g, opaque: false },
  { kind: 'version', pattern: /\bv?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b/g, opaque: false },
  { kind: 'symbol', pattern: /\b[a-z][a-z0-9]*(?:_[a-z0-9]+){2,}\b|\b[a-z]+(?:[A-Z][a-z0-9]+){2,}\b/g, opaque: false },
];

/** Trailing sentence punctuation is never part of an identifier. */
export function trimIdentifier(value: string): string {
  return value.replace(/[.,;:!?'")\]]+$/, '');
}
