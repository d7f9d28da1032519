import { findIdentifiers } from '../text/find-identifiers.ts';
import { phraseKeys } from '../text/phrase-index.ts';
import type { Band } from './band.ts';
import type { FoldLine } from './fold-line.ts';
import { UNSCANNED } from './line-templates.ts';
import { lineGroups, renderGroup } from './render-lines.ts';

/** What a sealed band holds, for the folds that follow it: lines, phrases and identifiers already in the view. */
export interface BandContents {
  readonly lines: ReadonlySet<string>;
  readonly phrases: ReadonlySet<number>;
  readonly identifiers: ReadonlySet<string>;
}

// bands never change once sealed, so their contents are worked out once; always as the band
// itself reads, so a band restored from a snapshot reads exactly as the one that was built
const contentsCache = new WeakMap<Band, BandContents>();

/**
 * Identifiers of a band's text, line by line: no identifier pattern matches a line break, so this
 * is the whole text's set, with each scan (and its overlap bookkeeping) kept to one short line.
 */
function identifiersOf(text: string): Set<string> {
  const identifiers = new Set<string>();
  for (const line of text.split('\n')) for (const { value } of findIdentifiers(line)) identifiers.add(value);
  return identifiers;
}

/** A band's contents: its line keys, their phrases and the identifiers in its text. */
export function contentsOf(band: Band): BandContents {
  let contents = contentsCache.get(band);
  if (!contents) {
    contents = {
      lines: new Set(band.lineKeys),
      phrases: new Set(band.lineKeys.flatMap((line) => phraseKeys(line))),
      identifiers: identifiersOf(band.text),
    };
    contentsCache.set(band, contents);
  }
  return contents;
}

/** Whitespace that collapsing turns into a word break but phrase keys do not split at (em space, BOM…). */
const ODD_SPACE = /[^\S\t\n\v\f\r \u00a0]/;

/**
 * Records a band's contents as it is built: its lines' phrases are already known. A picked line's
 * key is its kept text whitespace-collapsed, and phrase keys split at the same whitespace, so
 * these are the phrases `contentsOf` reads back from the band.
 */
export function sealContents(band: Band, picked: readonly FoldLine[], frame: string): void {
  const phrases = new Set<number>();
  for (const line of picked)
    for (const key of ODD_SPACE.test(line.text) ? phraseKeys(line.key) : line.phrases) phrases.add(key);
  contentsCache.set(band, { lines: new Set(band.lineKeys), phrases, identifiers: bandIdentifiers(picked, frame) });
}

/**
 * The identifiers `contentsOf` reads from a band's text, from the lines it was built of: a line
 * shown whole carries its own scan (a line prefix or a `… ` mark before it cannot start or end
 * an identifier); joined fragments, cut lines and unscanned lines are scanned as shown.
 * `frame` is the rest of the band's text: header, omitted calls, closet.
 */
function bandIdentifiers(picked: readonly FoldLine[], frame: string): Set<string> {
  const identifiers = identifiersOf(frame);
  for (const group of lineGroups(picked)) {
    const line = group.length === 1 ? group[0] : undefined;
    const scanned =
      line !== undefined && line.identifiers !== UNSCANNED && !line.text.startsWith('… ') && !line.text.endsWith(' …');
    for (const { value } of scanned ? line.identifiers : findIdentifiers(renderGroup(group))) identifiers.add(value);
  }
  return identifiers;
}
