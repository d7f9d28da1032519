import { findIdentifiers } from '../closet/nominate-verbatim.ts';
import { phraseKeys } from '../text/phrase-index.ts';
import type { Band } from './build-band.ts';

/** What a sealed band holds, for the folds that follow it: lines, phrases and identifiers already in the view. */
export interface BandContents {
  readonly lines: ReadonlySet<string>;
  readonly phrases: ReadonlySet<number>;
  readonly identifiers: ReadonlySet<string>;
}

// bands never change once sealed, so their contents are worked out once; always from the band
// itself, so a band restored from a snapshot reads exactly as the one that was built
const contentsCache = new WeakMap<Band, BandContents>();

/** A band's contents: its line keys, their phrases and the identifiers in its text. */
export function contentsOf(band: Band): BandContents {
  let contents = contentsCache.get(band);
  if (!contents) {
    contents = {
      lines: new Set(band.lineKeys),
      phrases: new Set(band.lineKeys.flatMap((line) => phraseKeys(line))),
      identifiers: new Set(findIdentifiers(band.text).map((identifier) => identifier.value)),
    };
    contentsCache.set(band, contents);
  }
  return contents;
}
