import { describe, expect, it } from 'vitest';
import { LINE_TOKEN_CACHE_CAPACITY, LineTokenCache } from '../../src/fold/build-band.ts';
import { BoundedWeakMap } from '../../src/text/bounded-weak-map.ts';

describe('BoundedWeakMap', () => {
  it('keeps what was asked for lately and lets go of what was not', () => {
    const cache = new BoundedWeakMap<object, string>(2);
    const [a, b, c, d] = [{}, {}, {}, {}];
    cache.set(a, 'a');
    cache.set(b, 'b');
    cache.set(c, 'c'); // a and b are now the old generation
    expect(cache.get(a)).toBe('a'); // read again: back in the young one
    cache.set(d, 'd'); // the old generation (b, never read again) goes
    expect(cache.get(b)).toBeUndefined();
    expect([cache.get(a), cache.get(c), cache.get(d)]).toEqual(['a', 'c', 'd']);
  });

  it('drops a generation whole once it has taken its capacity in weight', () => {
    const cache = new BoundedWeakMap<object, string>(10);
    const heavy = {};
    const light = Array.from({ length: 3 }, () => ({}));
    cache.set(heavy, 'heavy', 8);
    light.forEach((key) => cache.set(key, 'light', 4)); // each of these fills a generation past 10
    expect(cache.get(heavy)).toBeUndefined();
    expect(cache.get(light[2])).toBe('light');
  });

  it('gives back the value stored for a key, and replaces it on a second set', () => {
    const cache = new BoundedWeakMap<object, number>(2);
    const key = {};
    expect(cache.get(key)).toBeUndefined();
    cache.set(key, 1);
    cache.set(key, 2);
    expect(cache.get(key)).toBe(2);
  });
});

describe('LineTokenCache', () => {
  it('counts a line once while it is in use, and counts it again (the same) after it was let go', () => {
    let calls = 0;
    const cache = new LineTokenCache((text) => {
      calls++;
      return text.length;
    });
    expect(cache.count('alpha')).toBe(5);
    expect(cache.count('alpha')).toBe(5);
    expect(calls).toBe(1);
    // two generations of other lines push it out
    for (let n = 0; n < 2 * LINE_TOKEN_CACHE_CAPACITY + 1; n++) cache.count(`line ${n}`);
    const before = calls;
    expect(cache.count('alpha')).toBe(5);
    expect(calls).toBe(before + 1);
  });
});
