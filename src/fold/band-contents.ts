import { findIdentifiers } from '../closet/nominate-verbatim.ts';
import { phraseKeys } from '../text/phrase-index.ts';
import type { Band } from './build-band.ts';

/** What a sealed band holds, for the folds that follow it: lines, phrases and identifiers already in the view. */
export interface BandContents {
  readonly lines: ReadonlySet<string>;
  readonly phrases: ReadonlySet<number>;
  readonly identifiers: ReadonlySet<string>;
}

// bands never change once sealed, so their contents are worked out once
const contentsCache = new WeakMap<Band, BandContents>();

/** Recorded by the fold that built the band, from lines it had already read. */
export function rememberContents(band: Band, contents: BandContents): void {
  contentsCache.set(band, contents);
}

/** A band's contents; read back from its text when the band was restored from a snapshot. */
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
