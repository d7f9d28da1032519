import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTokens, createTokenCounter } from '../../src/tokens/index.ts';

describe('countTokens', () => {
  it('counts o200k_base tokens exactly', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
  });

  it('counts special-token strings as plain text instead of throwing', () => {
    expect(countTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('memoized counter agrees with the plain one', () => {
    const counter = createTokenCounter({ memoLimit: 3 });
    fc.assert(fc.property(fc.string(), (text) => counter(text) === countTokens(text) && counter(text) === countTokens(text)));
  });
});

describe('src/tokens is isomorphic', () => {
  it('imports nothing from node and touches no node globals', () => {
    const folder = fileURLToPath(new URL('../../src/tokens/', import.meta.url));
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(folder + file, 'utf8').replace(/\/\/.*$/gm, '');
      expect(source, file).not.toMatch(/from ['"]node:|\bprocess\.|\bBuffer\b|require\(/);
    }
  });
});
