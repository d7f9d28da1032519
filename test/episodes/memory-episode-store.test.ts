import { describe, it, expect } from 'vitest';
import { createMemoryEpisodeStore } from '../../src/episodes/index.ts';
import { runEpisodeStoreConformance } from './episode-store-conformance.ts';

runEpisodeStoreConformance('memory', () => createMemoryEpisodeStore());

describe('memory episode store', () => {
  it('keeps separate stores apart', async () => {
    const first = createMemoryEpisodeStore();
    const second = createMemoryEpisodeStore();
    await first.put([{ id: 'ep-1', sessionId: 's', request: '', files: [{ path: 'a.ts', how: 'read' }], conclusions: [], outcome: 'open', span: { startIndex: 0, endIndex: 1 } }]);
    expect(await second.list()).toEqual([]);
  });

  it('refuses an episode without an id and stores nothing of that batch', async () => {
    const store = createMemoryEpisodeStore();
    const good = { id: 'ep-1', sessionId: 's', request: '', files: [], conclusions: [], outcome: 'open' as const, span: { startIndex: 0, endIndex: 1 } };
    await expect(store.put([good, { ...good, id: '' }])).rejects.toThrow(TypeError);
    expect(await store.list()).toEqual([]);
  });
});
