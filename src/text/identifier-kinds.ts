/** Kinds of exact identifiers a fold conserves verbatim, most opaque (least guessable) first. */
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
  | 'symbol'
  | 'slug'
  | 'image';

export interface IdentifierPattern {
  readonly kind: IdentifierKind;
  readonly pattern: RegExp;
  /** Opaque values are meaningless without a label saying what they are. */
  readonly opaque: boolean;
  /** Extra test a match must pass (a regex alone cannot say it). */
  readonly accept?: (value: string) => boolean;
  /** A cheap test every text holding a match passes: most lines skip most patterns without a regex scan. */
  readonly mayMatch: (text: string) => boolean;
  /**
   * A mark (a string, or a global pattern) every match holds, for a pattern whose matches hold no whitespace and whose edge
   * assertions read whitespace as the text's edge: only the whitespace-free runs around the
   * mark are scanned, with the same matches (a regex scan tries every start in the text).
   * The mark stands in for `mayMatch`, which must then test for the same mark.
   */
  readonly runMark?: string | RegExp;
}

const has =
  (...marks: string[]) =>
  (text: string): boolean => {
    for (const mark of marks) if (text.includes(mark)) return true;
    return false;
  };
// Each mark is a piece every match of its pattern contains: a line without it skips the pattern's scan.
const HEX_RUN = /[0-9a-f]{7}/;
const CODE_MARK = /[A-Z](?:[A-Z]{3}|\d{3})|ERR_|errno/;
const SLUG_MARK = /[a-z0-9]-[a-z0-9]+-[a-z0-9]/;
const IMAGE_MARK = /:(?:v\d|\d{1,4}\.\d)/;
const PORT_MARK = /:\d\d/;
const VALUE_MARK = /: \d/;
const ISSUE_MARK = /#\d|[A-Z0-9]-\d/;
const VERSION_MARK = /\d\.\d+\.\d/;
const SYMBOL_MARK = /_[a-z0-9]+_|[a-z][A-Z][a-z0-9]+[A-Z]/;
/** A mark as a global pattern, to find where it occurs (see `runMark`). */
const everywhere = (mark: RegExp) => new RegExp(mark.source, 'g');

/** A hyphenated name with a random-looking segment: pod, container and build names. */
const hasOpaqueSegment = (value: string) =>
  value.length >= 12 &&
  value.split('-').some((segment) => segment.length >= 5 && /\d/.test(segment) && /[a-z]/.test(segment));

// Order matters: earlier kinds claim their span first, so a UUID is not also read as hashes.
export const IDENTIFIER_PATTERNS: readonly IdentifierPattern[] = [
  {
    kind: 'uuid',
    pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
    opaque: true,
    mayMatch: has('-'),
    runMark: '-',
  },
  { kind: 'url', pattern: /\bhttps?:\/\/[^\s'"`<>()[\]{}]+/g, opaque: false, mayMatch: has('://') },
  // bounded quantifiers: unbounded ones backtrack quadratically on long unbroken tokens
  {
    kind: 'slug',
    pattern: /\b[a-z][a-z0-9]{0,40}(?:-[a-z0-9]{1,40}){2,12}\b/g,
    opaque: false,
    accept: hasOpaqueSegment,
    mayMatch: (text) => SLUG_MARK.test(text),
    runMark: everywhere(SLUG_MARK),
  },
  {
    kind: 'image',
    pattern: /\b[a-z0-9][\w.-]{0,60}(?:\/[\w.-]{1,60}){0,4}:(?:v\d[\w.-]{0,30}|\d{1,4}\.\d{1,4}[\w.-]{0,30})/g,
    opaque: false,
    mayMatch: (text) => IMAGE_MARK.test(text),
    runMark: everywhere(IMAGE_MARK),
  },
  {
    kind: 'hash',
    pattern: /\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/g,
    opaque: true,
    mayMatch: (text) => HEX_RUN.test(text),
    runMark: everywhere(HEX_RUN),
  },
  {
    kind: 'path',
    pattern:
      /(?:~|\.{1,2})?\/?(?:[\w.@+-]{1,100}\/){1,24}[\w.@+-]{1,100}\.[A-Za-z0-9]{1,8}\b|(?<![\w.:/])\/(?:[\w.@+-]{1,100}\/){1,24}[\w.@+-]{1,100}/g,
    opaque: false,
    mayMatch: has('/'),
    runMark: '/',
  },
  {
    kind: 'host-port',
    pattern: /\b(?:[A-Za-z0-9-]{1,63}\.){0,8}[A-Za-z0-9_-]{1,63}:\d{2,5}\b/g,
    opaque: false,
    accept: (value) => /[A-Za-z]/.test(value.slice(0, value.lastIndexOf(':'))),
    mayMatch: (text) => PORT_MARK.test(text),
    runMark: everywhere(PORT_MARK),
  },
  {
    kind: 'key-value',
    pattern: /\b[A-Za-z_][\w.-]{0,40}=(?=[\w./:@-]*\d)[\w./:@-]{1,80}|\b[a-z_][\w.-]{2,40}: \d[\w./:-]{0,40}/g,
    opaque: false,
    mayMatch: (text) => text.includes('=') || VALUE_MARK.test(text),
  },
  {
    kind: 'issue-ref',
    pattern: /(?<![\w&#])(?:[\w.-]{1,100}\/[\w.-]{1,100})?#\d{1,8}\b|\b[A-Z][A-Z0-9]{1,9}-\d{1,7}\b/g,
    opaque: false,
    mayMatch: (text) => ISSUE_MARK.test(text),
    runMark: everywhere(ISSUE_MARK),
  },
  {
    kind: 'error-code',
    pattern:
      /\b(?:E[A-Z]{3,12}|ERR_[A-Z0-9_]{3,40}|[A-Z]{1,5}\d{3,6}|SQLSTATE[ =:]?[0-9A-Z]{5}|errno[ =:]?-?\d{1,5})\b/g,
    opaque: false,
    mayMatch: (text) => CODE_MARK.test(text),
  },
  {
    kind: 'version',
    pattern: /\bv?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b/g,
    opaque: false,
    mayMatch: (text) => VERSION_MARK.test(text),
    runMark: everywhere(VERSION_MARK),
  },
  {
    kind: 'symbol',
    pattern: /\b[a-z][a-z0-9]*(?:_[a-z0-9]+){2,}\b|\b[a-z]+(?:[A-Z][a-z0-9]+){2,}\b/g,
    opaque: false,
    mayMatch: (text) => SYMBOL_MARK.test(text),
    runMark: everywhere(SYMBOL_MARK),
  },
];

/**
 * The template of a line: numbers, hex runs and ids replaced by `#`. Log spam shares one template
 * across many lines, and the ids in it are rarely the ones an agent comes back for.
 */
export function lineShape(line: string): string {
  return line
    .replace(/[0-9a-f]{6,}(?:-[0-9a-f]{4,})*|\d+/gi, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Trailing sentence punctuation is never part of an identifier. */
const TRAILING_PUNCTUATION = /[.,;:!?'")\]]+$/;
export function trimIdentifier(value: string): string {
  // most matches end in a word character: no regex needed for them
  return TRAILING_PUNCTUATION.test(value[value.length - 1] ?? '') ? value.replace(TRAILING_PUNCTUATION, '') : value;
}
