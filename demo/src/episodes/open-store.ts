/** The episode store of the inspector: the library's IndexedDB backend, one database for the page. */
import type { EpisodeStore } from '../../../src/index.ts';

export const EPISODE_DATABASE = 'warpfold-inspector';

export async function openEpisodeStore(): Promise<EpisodeStore> {
  throw new Error('the IndexedDB store (src/storage/indexeddb.ts) is not merged into this branch yet');
}
