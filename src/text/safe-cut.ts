/**
 * Where text may be cut: never inside a surrogate pair (a lone half is not valid text, and
 * providers reject or mangle it), and not inside the common grapheme clusters either: a base
 * and its combining marks, emoji with skin tones, variation selectors, keycaps and tags, emoji
 * joined by ZWJ, flag pairs, CR LF.
 *
 * The cluster rules are our own small, fixed approximation of Unicode's extended grapheme
 * clusters rather than `Intl.Segmenter`: the segmenter is missing in some runtimes and follows
 * each runtime's ICU version elsewhere, and identical input must give byte-identical output in
 * every runtime. Text that is plain ASCII on both sides of a cut takes a fast path.
 */

/** A cut moves at most this far looking for a boundary; past it the code-point boundary stands. */
const MAX_CLUSTER_UNITS = 64;

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

function codePointAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (isHigh(code) && at + 1 < text.length && isLow(text.charCodeAt(at + 1)))
    return (code - 0xd800) * 0x400 + (text.charCodeAt(at + 1) - 0xdc00) + 0x10000;
  return code;
}

function codePointBefore(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  if (isLow(code) && at >= 2 && isHigh(text.charCodeAt(at - 2)))
    return (text.charCodeAt(at - 2) - 0xd800) * 0x400 + (code - 0xdc00) + 0x10000;
  return code;
}

/** Code points that attach to the one before them (a subset of Grapheme_Cluster_Break Extend, ZWJ, SpacingMark). */
function attaches(point: number): boolean {
  return (
    (point >= 0x0300 && point <= 0x036f) || // combining diacritical marks
    (point >= 0x0483 && point <= 0x0489) ||
    (point >= 0x0591 && point <= 0x05c7) || // Hebrew points
    (point >= 0x0610 && point <= 0x061a) ||
    (point >= 0x064b && point <= 0x065f) || // Arabic harakat
    (point >= 0x0900 && point <= 0x0903) ||
    (point >= 0x093a && point <= 0x094f) || // Devanagari signs and vowel marks
    (point >= 0x0e31 && point <= 0x0e3a && point !== 0x0e32 && point !== 0x0e33) ||
    (point >= 0x0e47 && point <= 0x0e4e) || // Thai marks
    (point >= 0x1ab0 && point <= 0x1aff) ||
    (point >= 0x1dc0 && point <= 0x1dff) ||
    point === 0x200c ||
    point === 0x200d || // ZWNJ, ZWJ
    (point >= 0x20d0 && point <= 0x20ff) || // combining marks for symbols, keycap U+20E3
    (point >= 0x3099 && point <= 0x309a) ||
    (point >= 0xfe00 && point <= 0xfe0f) || // variation selectors
    (point >= 0xfe20 && point <= 0xfe2f) ||
    (point >= 0x1f3fb && point <= 0x1f3ff) || // emoji skin tones
    (point >= 0xe0020 && point <= 0xe007f) || // tag characters (subdivision flags)
    (point >= 0xe0100 && point <= 0xe01ef)
  );
}

const isRegionalIndicator = (point: number) => point >= 0x1f1e6 && point <= 0x1f1ff;

/** True when a cut between text[at - 1] and text[at] would split a character or a cluster. */
export function splitsCluster(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const code = text.charCodeAt(at);
  const previous = text.charCodeAt(at - 1);
  if (code < 0x80 && previous < 0x80) return previous === 13 && code === 10;
  if (isLow(code) && isHigh(previous)) return true;
  const point = codePointAt(text, at);
  if (attaches(point)) return true;
  const before = codePointBefore(text, at);
  if (before === 0x200d && point > 0x7f) return true; // an emoji ZWJ sequence
  if (before === 0x094d && point >= 0x0915 && point <= 0x0939) return true; // a Devanagari conjunct
  if (isRegionalIndicator(point) && isRegionalIndicator(before)) {
    // flags pair regional indicators from the left: a cut after an odd count splits a flag
    let count = 0;
    for (let i = at; i >= 2 && isRegionalIndicator(codePointBefore(text, i)) && count < MAX_CLUSTER_UNITS; i -= 2)
      count++;
    return count % 2 === 1;
  }
  return false;
}

/** The nearest safe cut at or before `at`. */
export function cutBefore(text: string, at: number): number {
  let cut = Math.max(0, Math.min(text.length, Math.floor(at)));
  for (let moved = 0; moved < MAX_CLUSTER_UNITS && splitsCluster(text, cut); moved++) cut--;
  if (cut > 0 && cut < text.length && isLow(text.charCodeAt(cut)) && isHigh(text.charCodeAt(cut - 1))) cut--;
  return cut;
}

/** The nearest safe cut at or after `at`. */
export function cutAfter(text: string, at: number): number {
  let cut = Math.max(0, Math.min(text.length, Math.ceil(at)));
  for (let moved = 0; moved < MAX_CLUSTER_UNITS && splitsCluster(text, cut); moved++) cut++;
  if (cut > 0 && cut < text.length && isLow(text.charCodeAt(cut)) && isHigh(text.charCodeAt(cut - 1))) cut++;
  return cut;
}

/** At most `count` UTF-16 units from the start, ending at a safe cut. */
export function headOf(text: string, count: number): string {
  return count >= text.length ? text : text.slice(0, cutBefore(text, count));
}

/** At most `count` UTF-16 units from the end, starting at a safe cut. */
export function tailOf(text: string, count: number): string {
  return count >= text.length ? text : text.slice(cutAfter(text, text.length - count));
}

/** `text[start, end)` widened inward to safe cuts: start moves forward, end moves back. */
export function sliceWithin(text: string, start: number, end: number): string {
  const from = cutAfter(text, start);
  const to = cutBefore(text, end);
  return to > from ? text.slice(from, to) : '';
}
