/** The episode store of the inspector: the library's IndexedDB backend, one database for the page. */
import type { EpisodeStore } from '../../../src/episodes/index.ts';
import { createIndexedDbStore } from '../../../src/storage/indexeddb.ts';

export const EPISODE_DATABASE = 'warpfold-inspector';

export async function openEpisodeStore(): Promise<EpisodeStore> {
  return createIndexedDbStore({ name: EPISODE_DATABASE }).episodes;
}
