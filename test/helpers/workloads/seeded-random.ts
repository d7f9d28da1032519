/** mulberry32: a tiny seeded PRNG, so generated tool output is identical on every run and runtime. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

export interface NoiseSource {
  integer(below: number): number;
  pick<T>(items: readonly T[]): T;
  hex(length: number): string;
  uuid(): string;
  podSuffix(): string;
}

export function noiseSource(seed: number): NoiseSource {
  const random = seededRandom(seed);
  const integer = (below: number): number => Math.floor(random() * below);
  const hex = (length: number): string => Array.from({ length }, () => '0123456789abcdef'[integer(16)]).join('');
  return {
    integer,
    pick: (items) => items[integer(items.length)],
    hex,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[integer(4)]}${hex(3)}-${hex(12)}`,
    podSuffix: () => Array.from({ length: 5 }, () => 'bcdfghjklmnpqrstvwxz2456789'[integer(27)]).join(''),
  };
}
