import { basenameOf, normalizePath, pathsMatch } from '../text/normalize-path.ts';
import { compareEpisodesNewestFirst } from './episode-order.ts';
import { DEFAULT_FIND_LIMIT, type EpisodeStore, type FindByPathsOptions, type ListEpisodesOptions } from './episode-store.ts';
import type { Episode } from './types.ts';

function limitOf(options: FindByPathsOptions | undefined): number {
  const limit = options?.limit ?? DEFAULT_FIND_LIMIT;
  if (!(limit >= 0)) throw new RangeError(`limit must be a non-negative number, got ${String(limit)}`);
  return limit;
}

/**
 * The reference backend: a Map of JSON strings by id and a Map from basename to ids. Storing
 * text, not objects, keeps it honest about what other backends can hold and hands out copies.
 */
export function createMemoryEpisodeStore(): EpisodeStore {
  const documents = new Map<string, string>();
  const byBasename = new Map<string, Set<string>>();

  const read = (id: string): Episode | undefined => {
    const text = documents.get(id);
    return text === undefined ? undefined : (JSON.parse(text) as Episode);
  };
  const unindex = (id: string) => {
    const known = read(id);
    for (const file of known?.files ?? []) byBasename.get(basenameOf(file.path))?.delete(id);
  };

  return {
    async put(episodes) {
      const prepared = episodes.map((episode) => {
        if (typeof episode?.id !== 'string' || episode.id === '') throw new TypeError('an episode needs a non-empty string id');
        return [episode.id, JSON.stringify(episode)] as const;
      });
      for (const [id, text] of prepared) {
        unindex(id);
        documents.set(id, text);
        for (const file of (JSON.parse(text) as Episode).files) {
          const base = basenameOf(normalizePath(file.path));
          const ids = byBasename.get(base);
          if (ids === undefined) byBasename.set(base, new Set([id]));
          else ids.add(id);
        }
      }
    },
    async get(id) {
      return read(id);
    },
    async findByPaths(paths, options) {
      const limit = limitOf(options);
      const wanted = paths.map(normalizePath).filter((path) => path !== '');
      const ids = new Set<string>();
      for (const path of wanted) for (const id of byBasename.get(basenameOf(path)) ?? []) ids.add(id);
      const found: Episode[] = [];
      for (const id of ids) {
        const episode = read(id);
        if (episode && episode.files.some((file) => wanted.some((path) => pathsMatch(normalizePath(file.path), path)))) found.push(episode);
      }
      return found.sort(compareEpisodesNewestFirst).slice(0, limit === Infinity ? undefined : Math.floor(limit));
    },
    async list(options?: ListEpisodesOptions) {
      const all: Episode[] = [];
      for (const id of documents.keys()) {
        const episode = read(id) as Episode;
        if (options?.sessionId === undefined || episode.sessionId === options.sessionId) all.push(episode);
      }
      return all.sort(compareEpisodesNewestFirst);
    },
    async delete(id) {
      if (!documents.has(id)) return false;
      unindex(id);
      documents.delete(id);
      return true;
    },
  };
}
