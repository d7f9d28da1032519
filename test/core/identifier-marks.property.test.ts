import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IDENTIFIER_PATTERNS } from '../../src/text/identifier-kinds.ts';

// texts built from the pieces identifiers are made of, so that every pattern matches often
const piece = fc.constantFrom(
  'a',
  'f',
  'z',
  'v',
  'E',
  'R',
  'Q',
  'A',
  'B',
  'Z',
  '0',
  '1',
  '7',
  '9',
  'deadbeef',
  '0123',
  '-',
  '_',
  '.',
  ':',
  '/',
  '#',
  '=',
  ' ',
  ': ',
  '~',
  '@',
  'http://',
  'https://',
  'ERR_',
  'errno',
  'SQLSTATE',
  'localhost',
  'Foo',
  'Bar',
);
const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));

describe('identifier pattern marks', () => {
  it('every text a pattern matches passes its cheap mark test, so skipping a scan never loses an identifier', () => {
    fc.assert(
      fc.property(text, (value) => {
        for (const { kind, pattern, mayMatch } of IDENTIFIER_PATTERNS) {
          pattern.lastIndex = 0;
          const matches = [...value.matchAll(pattern)].length > 0;
          if (matches) expect(mayMatch(value), `${kind} on ${JSON.stringify(value)}`).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
