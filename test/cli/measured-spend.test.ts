import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measuredSpend, recordedInputByTurn } from '../../src/node/cli/measured-spend.ts';
import { priceForSession } from '../../src/node/cli/price-class.ts';
import { findModelPrice } from '../../src/tokens/index.ts';
import { readTranscript } from '../../src/transcripts/index.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';
import { OPUS_4_5, recordedSpend } from '../helpers/recorded-spend.ts';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/claude-code/7d1c2e9a-5b3f-4c8e-9a21-3f6b0c4d8e17.jsonl');

describe('measured spend', () => {
  const read = readTranscript(readFileSync(FIXTURE, 'utf8'), { fileName: FIXTURE });
  const calls = read.metadata.recordedCalls ?? [];

  it('counts each Claude Code call once, however many lines carry its usage', () => {
    const ids = new Set(
      readFileSync(FIXTURE, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .filter((record) => record.type === 'assistant')
        .map((record) => record.message.id),
    );
    expect(calls).toHaveLength(ids.size);
    // every call wrote one assistant turn of the merged history, in order
    expect(calls.map((call) => call.turn)).toEqual(calls.map((_, index) => index));
    expect(recordedInputByTurn(calls).get(0)).toBe(calls[0].measuredInputTokens);
  });

  it("prices an Opus 4.5 session at Opus 4.5's page prices, to the cent", () => {
    const price = priceForSession(undefined, read.metadata.model);
    expect(price?.model).toBe('claude-opus-4-5');
    const spend = measuredSpend(calls, price);
    const expected = recordedSpend(FIXTURE, OPUS_4_5);
    expect(spend?.totalCost?.toFixed(2)).toBe(expected.dollars.toFixed(2));
    expect(spend?.totalCost).toBeCloseTo(expected.dollars, 9);
    expect(spend?.peakInputTokens).toBe(expected.peakInput);
    expect(spend?.cacheWriteOneHourTokens).toBeGreaterThan(0);
    expect(spend!.cacheWriteTokens).toBeGreaterThan(spend!.cacheWriteOneHourTokens);
  });

  it('keeps the tokens but no dollars for an unpriced model, and says nothing for a session without usage', () => {
    expect(priceForSession(undefined, 'my-own-model')).toBeNull();
    expect(priceForSession(findModelPrice('gpt-5-codex')!, 'my-own-model')?.model).toBe('gpt-5-codex');
    const unpriced = measuredSpend(calls, null);
    expect(unpriced?.totalCost).toBeNull();
    expect(unpriced?.inputTokens).toBeGreaterThan(0);
    expect(measuredSpend([], null)).toBeNull();
  });
});
