import { describe, expect, it } from 'vitest';
import { findIdentifiers } from '../../src/text/find-identifiers.ts';
import { contentsOf, sealContents } from '../../src/fold/band-contents.ts';
import type { Band } from '../../src/fold/band.ts';
import type { FoldLine } from '../../src/fold/fold-line.ts';
import { collapse, IDENTIFIER_HINT, UNSCANNED } from '../../src/fold/line-templates.ts';
import { renderLines } from '../../src/fold/render-lines.ts';
import { phraseKeys } from '../../src/text/phrase-index.ts';

let order = 0;
/** A line as the fold reads it: scanned for identifiers only when it shows a hint. */
const line = (text: string, lineId = ++order, fragment = 0, kind: FoldLine['kind'] = 'output'): FoldLine => ({
  order: order++,
  messageIndex: 1,
  kind,
  lineId,
  fragment,
  text,
  key: collapse(text),
  phrases: phraseKeys(text),
  identifiers: IDENTIFIER_HINT.test(text) ? findIdentifiers(text) : UNSCANNED,
  identifierValue: 0,
  wordValue: 1,
  estimate: 10,
  mandatory: false,
});

const sorted = (set: ReadonlySet<string | number>) => [...set].map(String).sort();

describe('band contents', () => {
  it('records while building exactly what a restored band reads back from its text', () => {
    const picked = [
      line('deploy finished with build deadbeef42c on /srv/app/main.py'), // scanned: its own identifiers
      line('upgraded the toolchain to v1.2.3 and nothing else'), // no hint: never scanned, holds a version
      { ...line('… the call failed with ENOENT while reading the cache'), identifiers: [] }, // cut: its scan is stale
      line('max retries:', 900), // fragments joined across a seam form an identifier
      line('5 before giving up', 900, 1),
      line('plain words that hold nothing exact at all', undefined, 0, 'assistant'),
    ];
    const frame = '[warpfold fold · messages 2–9 · 4000 tokens]\n⌖ 7fd5835b ⟦changelog_id⟧';
    const text = [frame.split('\n')[0], renderLines(picked), frame.split('\n')[1]].join('\n');
    const band: Band = {
      start: 1,
      end: 9,
      text,
      tokens: 100,
      lineKeys: picked.map((picked) => picked.key),
      estimateScale: 1,
    };
    sealContents(band, picked, frame);
    const built = contentsOf(band);
    const read = contentsOf(JSON.parse(JSON.stringify(band)) as Band);
    expect(sorted(built.identifiers)).toEqual(sorted(read.identifiers));
    expect(sorted(built.phrases)).toEqual(sorted(read.phrases));
    expect([...built.identifiers]).toEqual(
      expect.arrayContaining(['deadbeef42c', '/srv/app/main.py', 'v1.2.3', 'ENOENT', 'retries: 5', '7fd5835b']),
    );
  });
});
