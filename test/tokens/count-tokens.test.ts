import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTokens as countWithGptTokenizer, DEFAULT_MERGE_CACHE_SIZE } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens, createTokenCounter } from '../../src/tokens/index.ts';
import { longHistory } from '../helpers/workloads/long-history.ts';

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
    fc.assert(
      fc.property(fc.string(), (text) => counter(text) === countTokens(text) && counter(text) === countTokens(text)),
    );
  });
});

describe('countTokens over a long history of varied words (issue 29)', () => {
  it("gives gpt-tokenizer's counts across the points where it empties the merge cache", () => {
    const texts = longHistory(3_000).map((message) => JSON.stringify(message));
    const chars = texts.reduce((sum, text) => sum + text.length, 0);
    // several times the span after which the cache is emptied
    expect(chars).toBeGreaterThan(4 * DEFAULT_MERGE_CACHE_SIZE);
    for (const text of texts) expect(countTokens(text)).toBe(countWithGptTokenizer(text));
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
