import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addPhraseKeys, phraseKeys } from '../../src/text/phrase-index.ts';

const text = fc
  .array(fc.constantFrom('a', 'bb', 'c d', 'foo bar baz', '\n', ' ', '\r', '\t', '\u00a0', '\u2028', 'é', 'x\ny'), {
    maxLength: 60,
  })
  .map((pieces) => pieces.join(''));

describe('addPhraseKeys', () => {
  it('adds exactly the keys phraseKeys gives line by line', () => {
    fc.assert(
      fc.property(text, (value) => {
        const scanned = new Set<number>();
        addPhraseKeys(value, scanned);
        const byLine = new Set(value.split('\n').flatMap((line) => phraseKeys(line)));
        expect([...scanned].sort()).toEqual([...byLine].sort());
      }),
      { numRuns: 3000 },
    );
  });
});
