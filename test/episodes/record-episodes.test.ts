import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { deriveEpisodesFromMessages, recordEpisodes, type Episode } from '../../src/episodes/index.ts';
import { createMemoryStore } from '../../src/storage/memory.ts';
import { renderScript, type ScriptStep } from '../recall/dialects.ts';
import { makeEpisode } from './fixtures.ts';

const LOADER = 'src/config/loader.ts';

const verdictAboutLoader = makeEpisode({
  start: 1,
  endedAt: 1_000,
  files: [{ path: LOADER, how: 'read' }],
  conclusions: [{ kind: 'verdict', text: '🏁 PORT is hardcoded in the loader.', paths: [LOADER] }],
});
const hazardAboutLoader = makeEpisode({
  start: 5,
  endedAt: 2_000,
  files: [{ path: LOADER, how: 'read' }],
  conclusions: [{ kind: 'hazard', text: '⚠️ The loader must stay synchronous.', paths: [LOADER] }],
});
const readsLoader = makeEpisode({ start: 10, endedAt: 3_000, files: [{ path: `./${LOADER}`, how: 'read' }] });
const editsLoader = makeEpisode({
  start: 20,
  endedAt: 4_000,
  files: [{ path: `/repo/${LOADER}`, how: 'edited' }],
  conclusions: [{ kind: 'answer', text: 'Done.', paths: [`/repo/${LOADER}`] }],
});
const verdictLater = makeEpisode({
  start: 40,
  endedAt: 6_000,
  files: [{ path: LOADER, how: 'read' }],
  conclusions: [{ kind: 'verdict', text: '🏁 The loader reads PORT now.', paths: [LOADER] }],
});
const newerHazard = makeEpisode({
  start: 50,
  endedAt: 7_000,
  files: [{ path: LOADER, how: 'read' }],
  conclusions: [{ kind: 'hazard', text: '⚠️ The loader may now be async.', paths: [LOADER] }],
});
const docsOnly = makeEpisode({
  start: 30,
  endedAt: 5_000,
  files: [{ path: 'docs/config.md', how: 'edited' }],
  conclusions: [{ kind: 'verdict', text: '🏁 Docs done.', paths: ['docs/config.md'] }],
});

async function recorded(...batches: Episode[][]) {
  const store = createMemoryStore().episodes;
  const results = [];
  for (const batch of batches) results.push(await recordEpisodes(store, batch));
  return { store, results, byId: new Map((await store.list()).map((episode) => [episode.id, episode])) };
}

describe('recordEpisodes supersession', () => {
  it('marks older conclusions about a file stale when a newer episode changes it', async () => {
    const { byId, results } = await recorded([verdictAboutLoader, editsLoader]);
    expect(byId.get(verdictAboutLoader.id)?.conclusions[0].supersededBy).toBe(editsLoader.id);
    expect(byId.get(verdictAboutLoader.id)?.supersededBy).toBe(editsLoader.id);
    expect(byId.get(editsLoader.id)?.conclusions[0].supersededBy).toBeUndefined();
    expect(results[0]).toEqual({ recorded: 2, superseded: 1 });
  });

  it('does not let a mere read or an unrelated file supersede anything', async () => {
    const { byId } = await recorded([verdictAboutLoader, readsLoader, docsOnly]);
    expect(byId.get(verdictAboutLoader.id)?.conclusions[0].supersededBy).toBeUndefined();
    expect(byId.get(verdictAboutLoader.id)?.supersededBy).toBeUndefined();
  });

  it('keeps hazards through edits and verdicts, but not through a newer hazard about the file', async () => {
    const edited = await recorded([hazardAboutLoader, editsLoader, verdictLater]);
    expect(edited.byId.get(hazardAboutLoader.id)?.conclusions[0].supersededBy).toBeUndefined();
    const restated = await recorded([hazardAboutLoader, newerHazard]);
    expect(restated.byId.get(hazardAboutLoader.id)?.conclusions[0].supersededBy).toBe(newerHazard.id);
  });

  it('lets a newer conclusion about a file supersede an older verdict even without an edit', async () => {
    const { byId } = await recorded([verdictAboutLoader, verdictLater]);
    expect(byId.get(verdictAboutLoader.id)?.conclusions[0].supersededBy).toBe(verdictLater.id);
  });

  it('never orders episodes of different sessions without a clock', async () => {
    const old = makeEpisode({
      sessionId: 'one',
      start: 1,
      files: [{ path: LOADER, how: 'read' }],
      conclusions: [{ kind: 'verdict', text: '🏁 a', paths: [LOADER] }],
    });
    const fresh = makeEpisode({ sessionId: 'two', start: 9, files: [{ path: LOADER, how: 'edited' }] });
    const { byId } = await recorded([old, fresh]);
    expect(byId.get(old.id)?.conclusions[0].supersededBy).toBeUndefined();
  });

  it('gives the same store whatever order the episodes arrive in, and points at the nearest newer episode', async () => {
    const all = [verdictAboutLoader, hazardAboutLoader, readsLoader, editsLoader, docsOnly];
    const reference = JSON.stringify((await recorded(all)).byId.get(verdictAboutLoader.id));
    expect(JSON.parse(reference).conclusions[0].supersededBy).toBe(hazardAboutLoader.id);
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }),
        fc.integer({ min: 1, max: all.length }),
        async (order, split) => {
          const { store } = await recorded(order.slice(0, split), order.slice(split));
          const expected = await recorded(all);
          expect(await store.list()).toEqual(await expected.store.list());
        },
      ),
      { numRuns: 30 },
    );
  });

  it('is idempotent: recording the same episodes again marks nothing new', async () => {
    const { store, results } = await recorded([verdictAboutLoader, editsLoader], [verdictAboutLoader, editsLoader]);
    expect(results[1]).toEqual({ recorded: 2, superseded: 0 });
    expect((await store.get(verdictAboutLoader.id))?.conclusions[0].supersededBy).toBe(editsLoader.id);
  });

  it('works end to end on derived episodes of two sessions with clocks', async () => {
    const morning: ScriptStep[] = [
      { kind: 'user', text: 'Why does the app ignore PORT?' },
      { kind: 'assistant', text: '', calls: [{ id: 'r', name: 'read_file', input: { path: LOADER } }] },
      { kind: 'results', results: [{ id: 'r', name: 'read_file', text: 'const PORT = 8080;' }] },
      { kind: 'assistant', text: `🏁 ${LOADER} hardcodes PORT = 8080.` },
    ];
    const afternoon: ScriptStep[] = [
      { kind: 'user', text: 'Fix it.' },
      {
        kind: 'assistant',
        text: '',
        calls: [
          {
            id: 'e',
            name: 'edit_file',
            input: {
              path: LOADER,
              old_string: 'const PORT = 8080;',
              new_string: 'const PORT = Number(process.env.PORT);',
            },
          },
        ],
      },
      { kind: 'results', results: [{ id: 'e', name: 'edit_file', text: 'ok' }] },
      { kind: 'assistant', text: '🏁 PORT now comes from the environment.' },
    ];
    const first = deriveEpisodesFromMessages(renderScript(morning, 'openai'), {
      sessionId: 'morning',
      timestamps: [1, 2, 3, 4],
    });
    const second = deriveEpisodesFromMessages(renderScript(afternoon, 'anthropic'), {
      sessionId: 'afternoon',
      timestamps: [10, 11, 12, 13],
    });
    const { byId } = await recorded(second, first);
    expect(byId.get(first[0].id)?.conclusions[0]).toMatchObject({
      text: `🏁 ${LOADER} hardcodes PORT = 8080.`,
      supersededBy: second[0].id,
    });
    expect(byId.get(second[0].id)?.conclusions[0].supersededBy).toBeUndefined();
  });
});
