import { findIdentifiers } from '../text/find-identifiers.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { lineShape } from '../text/identifier-kinds.ts';
import { phraseKeys } from '../text/phrase-index.ts';
import type { Band, BandLineOrigin } from './band.ts';
import { LINE_PREFIX } from './fold-line.ts';
import { collapse, IDENTIFIER_HINT, UNSCANNED, type LineTemplate } from './line-templates.ts';

/** One body line of a sealed band, read back as a line a merge can pick again. */
export interface ShownLine {
  readonly origin: BandLineOrigin;
  readonly template: LineTemplate;
}

// a sealed band never changes: its lines are read back once
const cache = new WeakMap<Band, readonly ShownLine[]>();

/**
 * A sealed band's body lines as the band shows them, each one line of its kind (fragments joined
 * as shown, `…` marks kept), for a merge that re-folds the band without re-reading its raw
 * messages: what the band dropped stays dropped. Empty for a band without origins.
 */
export function shownLines(band: Band): readonly ShownLine[] {
  let lines = cache.get(band);
  if (!lines) {
    const origins = band.origins;
    const text = origins
      ? band.text.split('\n').slice(origins.firstLine, origins.firstLine + origins.lines.length)
      : [];
    lines = text.map((shown, n) => {
      const origin = origins!.lines[n];
      const body = shown.slice(LINE_PREFIX[origin.kind].length);
      const identifiers = IDENTIFIER_HINT.test(body) ? findIdentifiers(body) : UNSCANNED;
      return {
        origin,
        template: {
          kind: origin.kind,
          text: body,
          key: collapse(body),
          phrases: phraseKeys(body),
          estimate: estimateTokens(shown) + 1,
          sourceLength: body.length,
          line: 0,
          fragment: 0,
          identifiers,
          shape: identifiers.length ? lineShape(body) : '',
        },
      };
    });
    cache.set(band, lines);
  }
  return lines;
}
