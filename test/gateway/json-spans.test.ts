import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrayElementSpans, topLevelSpans } from '../../src/gateway/json-spans.ts';

describe('JSON spans', () => {
  it('finds each top-level member and each array element exactly as JSON.parse reads them, whatever the spacing', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.jsonValue()),
        fc.constantFrom(undefined, 1, 2, '\t'),
        (fields, list, space) => {
          const value = { ...fields, list };
          const text = JSON.stringify(value, null, space);
          const spans = topLevelSpans(text);
          expect(spans).toBeDefined();
          const parsed = JSON.parse(text) as Record<string, unknown>;
          for (const [key, span] of spans ?? []) expect(JSON.parse(text.slice(span[0], span[1]))).toEqual(parsed[key]);
          const listSpan = spans?.get('list');
          const elements = listSpan && arrayElementSpans(text, listSpan);
          expect(elements?.map(([start, end]) => JSON.parse(text.slice(start, end)))).toEqual(parsed.list);
        },
      ),
    );
  });

  it('reads strings with escaped quotes and backslashes, and refuses what is not an object', () => {
    const text = '{"a":"x\\\\","b":"say \\"hi\\"","c":[1,"]",{"d":"}"}]}';
    const spans = topLevelSpans(text);
    expect(text.slice(...(spans?.get('b') ?? [0, 0]))).toBe('"say \\"hi\\""');
    const c = spans?.get('c');
    expect(c && arrayElementSpans(text, c)?.map(([start, end]) => text.slice(start, end))).toEqual([
      '1',
      '"]"',
      '{"d":"}"}',
    ]);
    expect(topLevelSpans('[1]')).toBeUndefined();
    expect(topLevelSpans('{"a":')).toBeUndefined();
  });
});
