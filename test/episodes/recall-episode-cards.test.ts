import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { recallEpisodeCards, recordEpisodes, type Episode } from '../../src/episodes/index.ts';
import { createMemoryStore } from '../../src/storage/memory.ts';
import { estimateTokens } from '../../src/text/estimate-tokens.ts';
import { makeEpisode } from './fixtures.ts';

const LOADER = 'src/config/loader.ts';
const HOUR = 3_600_000;

const stale = makeEpisode({
  start: 1,
  endedAt: 1 * HOUR,
  request: 'Why is PORT ignored?',
  files: [{ path: LOADER, how: 'read' }],
  conclusions: [{ kind: 'verdict', text: '🏁 PORT is hardcoded to 8080 in the loader.', paths: [LOADER] }],
});
const hazard = makeEpisode({
  start: 5,
  endedAt: 2 * HOUR,
  files: [{ path: LOADER, how: 'read' }],
  conclusions: [
    {
      kind: 'hazard',
      text: '⚠️ The loader must stay synchronous: boot code calls it before the event loop.',
      paths: [LOADER],
    },
  ],
});
const fix = makeEpisode({
  start: 9,
  endedAt: 3 * HOUR,
  request: 'Fix PORT.',
  files: [
    { path: LOADER, how: 'edited' },
    { path: 'test/config.test.ts', how: 'read' },
  ],
  conclusions: [{ kind: 'verdict', text: '🏁 PORT now comes from process.env.PORT; tests pass.', paths: [LOADER] }],
});
const touchOnly = makeEpisode({
  start: 14,
  endedAt: 4 * HOUR,
  files: [{ path: LOADER, how: 'read' }],
  outcome: 'abandoned',
});
const unrelated = makeEpisode({
  start: 20,
  endedAt: 5 * HOUR,
  files: [{ path: 'docs/readme.md', how: 'edited' }],
  conclusions: [{ kind: 'verdict', text: '🏁 readme', paths: ['docs/readme.md'] }],
});

async function storeWith(episodes: Episode[]) {
  const store = createMemoryStore().episodes;
  await recordEpisodes(store, episodes);
  return store;
}

describe('recallEpisodeCards', () => {
  it('returns live knowledge about the touched files first, newest first, stale conclusions dropped', async () => {
    const store = await storeWith([stale, hazard, fix, touchOnly, unrelated]);
    const cards = await recallEpisodeCards(store, [`./${LOADER}`], { budgetTokens: 2_000, now: 5 * HOUR });
    expect(cards.map((card) => card.episodeId)).toEqual([fix.id, hazard.id, touchOnly.id]);
    expect(
      cards[0].text.startsWith(`[warpfold episode · ${fix.id} · succeeded · session session-a · ended 2h ago]`),
    ).toBe(true);
    expect(cards[0].text).toContain('🏁 PORT now comes from process.env.PORT; tests pass.');
    expect(cards[0].text).toContain(`files: edited ${LOADER}; read test/config.test.ts`);
    expect(cards[0].text).toContain('asked: Fix PORT.');
    expect(cards[1].text).toContain('⚠️ The loader must stay synchronous');
    expect(cards.map((card) => card.text).join('\n')).not.toContain('hardcoded to 8080');
    expect(cards[0].matchedPaths).toEqual([LOADER]);
  });

  it('marks superseded conclusions instead when asked', async () => {
    const store = await storeWith([stale, fix]);
    const cards = await recallEpisodeCards(store, [LOADER], { budgetTokens: 2_000, superseded: 'mark' });
    const old = cards.find((card) => card.episodeId === stale.id);
    expect(old?.text).toContain(`⊘ superseded by ${fix.id}: 🏁 PORT is hardcoded to 8080 in the loader.`);
    expect(old?.text).toContain('ended 1970-01-01T01:00:00.000Z');
  });

  it('leaves out excluded episodes and files nobody touched', async () => {
    const store = await storeWith([fix, unrelated]);
    expect(await recallEpisodeCards(store, ['src/other.ts'], { budgetTokens: 2_000 })).toEqual([]);
    expect(await recallEpisodeCards(store, [LOADER], { budgetTokens: 2_000, excludeEpisodeIds: [fix.id] })).toEqual([]);
    expect(await recallEpisodeCards(store, [], { budgetTokens: 2_000 })).toEqual([]);
  });

  it('stays within its token budget and card count for any budget', async () => {
    const many = Array.from({ length: 8 }, (_, n) =>
      makeEpisode({
        start: n * 10,
        endedAt: n * HOUR,
        files: [{ path: LOADER, how: 'read' }],
        conclusions: [
          { kind: 'hazard', text: `⚠️ Invariant ${n}: ${'keep the loader pure; '.repeat(30 + n)}`, paths: [LOADER] },
        ],
      }),
    );
    const store = await storeWith(many);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3_000 }),
        fc.integer({ min: 0, max: 8 }),
        async (budgetTokens, maxCards) => {
          const cards = await recallEpisodeCards(store, [LOADER], { budgetTokens, maxCards });
          expect(cards.length).toBeLessThanOrEqual(maxCards);
          let total = 0;
          for (const card of cards) {
            expect(card.tokens).toBe(estimateTokens(card.text));
            total += card.tokens;
          }
          expect(total).toBeLessThanOrEqual(budgetTokens);
        },
      ),
      { numRuns: 40 },
    );
    const tight = await recallEpisodeCards(store, [LOADER], { budgetTokens: 150 });
    expect(tight).toHaveLength(1);
    expect(tight[0].text).toContain('⚠️ Invariant 7:');
    expect(tight[0].text).toMatch(/…$/);
  });

  it('uses the counter it is given', async () => {
    const store = await storeWith([fix]);
    const [card] = await recallEpisodeCards(store, [LOADER], {
      budgetTokens: 10_000,
      countTokens: (text) => text.length,
    });
    expect(card.tokens).toBe(card.text.length);
    expect(await recallEpisodeCards(store, [LOADER], { budgetTokens: 50, countTokens: (text) => text.length })).toEqual(
      [],
    );
  });
});
