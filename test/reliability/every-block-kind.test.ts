/**
 * Finding 2 of issue 14: every block kind the dialects allow is counted. Documents, search
 * results, tool_result content arrays and code parts count their text; images, audio and video a
 * documented per-provider estimate (src/messages/media-tokens.ts); unknown kinds their serialized
 * size. The bounded-view property (the DESIGN.md invariants of test/core/invariants.property.test.ts,
 * through the same runner) holds over histories that carry every kind.
 */
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/fold/index.ts';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { Transcript } from '../../src/messages/index.ts';
import { imageTokens } from '../../src/messages/media-tokens.ts';
import { extraBlocks, pngBase64, withBlockKinds } from '../helpers/block-kinds.ts';
import type { Dialect } from '../helpers/dialects.ts';

/** The chat dialects whose block kinds this covers (the Responses and AI SDK readers count their own parts). */
const DIALECTS: readonly Dialect[] = ['openai', 'anthropic', 'gemini'];
import { run, scenario } from '../helpers/property-run.ts';
import { stringLeaves } from '../helpers/view-checks.ts';

const tokensOf = (history: ProviderMessage[], counter = estimateTokens) => {
  const transcript = new Transcript(counter);
  transcript.sync(history);
  return transcript.tokensBetween(0, transcript.length);
};

/** o200k tokens of what the provider reads as text: every string leaf except inline base64 payloads. */
const readableTokens = (view: readonly ProviderMessage[]) =>
  countTokens(
    stringLeaves(view)
      .filter((leaf) => leaf.length < 200 || /\s/.test(leaf))
      .join('\n'),
  );

describe('every block kind is counted', () => {
  it('the repro: an Anthropic document with 1 MB of text is counted, and the view stays under 16,000 tokens', () => {
    const document = Array.from(
      { length: 20_000 },
      (_, n) => `line ${n}: the quarterly figures for region ${n % 17} rose by ${n % 9} percent`,
    ).join('\n');
    expect(document.length).toBeGreaterThan(1_000_000);
    const history: ProviderMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summarise the attached report.' },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: document }, title: 'report.txt' },
        ],
      },
    ];
    const raw = new FoldSession({ pressureCeiling: false, countTokens, now: () => 0 }).prepare(history);
    expect(raw.stats.rawTokens).toBeGreaterThan(250_000);
    const outcome = new FoldSession({ pressureCeiling: 16_000, countTokens, now: () => 0 }).prepare(history);
    expect(outcome.stats.viewTokens).toBeLessThanOrEqual(16_000);
    expect(readableTokens(outcome.messages)).toBeLessThanOrEqual(16_000);
  });

  it('images count by the provider rule when the header gives the size, and by the per-image maximum when it does not', () => {
    expect(imageTokens('anthropic', pngBase64(1_000, 1_000))).toBe(1_334); // 1e6 / 750
    expect(imageTokens('anthropic', pngBase64(4_000, 3_000))).toBe(1_600); // scaled to the 1.2 MP cap
    expect(imageTokens('anthropic', undefined)).toBe(1_600);
    expect(imageTokens('openai', pngBase64(1_024, 1_024))).toBe(85 + 170 * 4); // 768 × 768 → 4 tiles
    expect(imageTokens('openai', pngBase64(4_096, 1_536))).toBe(85 + 170 * 8); // fits 2,048 × 768 → 4 × 2 tiles
    expect(imageTokens('openai', pngBase64(4_096, 1_024))).toBe(85 + 170 * 4); // fits 2,048 × 512, never scaled up → 4 × 1 tiles
    expect(imageTokens('openai', pngBase64(1_024, 1_024), 'low')).toBe(85);
    expect(imageTokens('openai', undefined)).toBe(85 + 170 * 8);
    expect(imageTokens('gemini', pngBase64(300, 300))).toBe(258);
    expect(imageTokens('gemini', pngBase64(1_000, 1_000))).toBe(258 * 4);
  });

  it.each(DIALECTS)('each extra block kind adds to the count (%s)', (dialect: Dialect) => {
    const text = (extra: Record<string, unknown>[]): ProviderMessage =>
      dialect === 'gemini'
        ? { role: 'user', parts: [{ text: 'Look at these.' }, ...extra] }
        : { role: 'user', content: [{ type: 'text', text: 'Look at these.' }, ...extra] };
    const base = tokensOf([text([])]);
    for (let seed = 0; seed < 4; seed++)
      for (const block of extraBlocks(dialect, seed))
        expect(tokensOf([text([block])]), `${JSON.stringify(block).slice(0, 90)}`).toBeGreaterThan(base + 40);
    // a kind warpfold does not know counts by its serialized size
    const unknown =
      dialect === 'gemini'
        ? { videoMetadata: { payload: 'x'.repeat(4_000) } }
        : { type: 'container_upload', file_id: 'f'.repeat(4_000) };
    expect(tokensOf([text([unknown])])).toBeGreaterThan(base + 500);
  });

  it('tool_result content arrays count their text, images and documents', () => {
    const history = (content: unknown): ProviderMessage[] => [
      { role: 'user', content: 'Check.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }] },
    ];
    const plain = tokensOf(history('done'));
    expect(
      tokensOf(
        history([
          { type: 'text', text: 'done' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64(1_200, 900) } },
        ]),
      ),
    ).toBeGreaterThanOrEqual(plain + 1_400);
    expect(
      tokensOf(
        history([
          { type: 'text', text: 'done' },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'word '.repeat(3_000) } },
        ]),
      ),
    ).toBeGreaterThan(plain + 700);
  });
});

describe.each(DIALECTS)('the bounded-view invariants over histories with every block kind (%s)', (dialect: Dialect) => {
  it('holds at every call', () => {
    const samples = fc.sample(scenario(dialect, { maxTurns: 5, maxStepsPerTurn: 6, hugeWeight: 1 }), {
      numRuns: 8,
      seed: 14_002,
    });
    const problems = samples.flatMap((sample, index) => {
      const decorated = {
        ...sample,
        generated: { ...sample.generated, history: withBlockKinds(sample.generated.history, dialect) },
      };
      return run(dialect, decorated).problems.map(
        (problem) => `sample ${index}: ${problem.invariant}: ${problem.detail}`,
      );
    });
    expect(problems.slice(0, 8)).toEqual([]);
  }, 120_000);
});
