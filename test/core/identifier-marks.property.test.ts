import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IDENTIFIER_PATTERNS } from '../../src/text/identifier-kinds.ts';
import { findIdentifiers, findIdentifiersWith, scanMatches } from '../../src/text/find-identifiers.ts';

const scanMatchesForTest = (pattern: RegExp, value: string, runMark: string | RegExp) => {
  const out: Array<[string, number]> = [];
  scanMatches(pattern, value, runMark, (matched, start) => out.push([matched, start]));
  return out;
};

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
  '\t',
  '\n',
  '\u00a0',
  '…',
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

  it('a pattern scanned only in the runs around its mark finds what a scan of the whole text finds', () => {
    fc.assert(
      fc.property(text, (value) => {
        for (const { kind, pattern, runMark } of IDENTIFIER_PATTERNS) {
          if (runMark === undefined) continue;
          const whole = [...value.matchAll(pattern)].map((match) => [match[0], match.index]);
          expect(scanMatchesForTest(pattern, value, runMark), `${kind} on ${JSON.stringify(value)}`).toEqual(whole);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('finds the same identifiers with run scans as with whole-text scans', () => {
    fc.assert(
      fc.property(text, (value) => {
        const plain = IDENTIFIER_PATTERNS.map((pattern) => ({ ...pattern, runMark: undefined }));
        expect(findIdentifiers(value)).toEqual(findIdentifiersWith(value, plain));
      }),
      { numRuns: 3000 },
    );
  });
});
