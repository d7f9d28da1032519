const segmenter =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl
    ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    : null;

/**
 * The first `limit` characters of `text` as a person counts them (grapheme clusters), so an emoji,
 * a flag or an accented letter is never cut in half; `…` marks a cut.
 */
export function clipText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let clipped = '';
  let count = 0;
  if (segmenter) {
    for (const { segment } of segmenter.segment(text.slice(0, limit * 2 + 16))) {
      if (count++ === limit) return `${clipped}…`;
      clipped += segment;
    }
    return clipped.length < text.length ? `${clipped}…` : clipped;
  }
  for (const character of text) {
    if (count++ === limit) return `${clipped}…`;
    clipped += character;
  }
  return clipped;
}
