import { compareEpisodesNewestFirst } from '../episodes/episode-order.ts';
import { DEFAULT_FIND_LIMIT, type FindByPathsOptions } from '../episodes/episode-store.ts';
import type { Episode } from '../episodes/types.ts';
import { basenameOf, normalizePath, pathsMatch } from '../recall/normalize-path.ts';
import { StorageInputError } from './storage-errors.ts';

/** The basename keys a backend indexes an episode under: one per distinct file basename. */
export function episodeBasenames(episode: Episode): string[] {
  return [...new Set(episode.files.map((file) => basenameOf(normalizePath(file.path))))];
}

/** The normalised, non-empty paths asked for, and the basenames to look up for them. */
export function wantedPaths(paths: readonly string[]): { paths: string[]; basenames: string[] } {
  const wanted = paths.map(normalizePath).filter((path) => path !== '');
  return { paths: wanted, basenames: [...new Set(wanted.map(basenameOf))] };
}

export function findLimit(options: FindByPathsOptions | undefined): number {
  const limit = options?.limit ?? DEFAULT_FIND_LIMIT;
  if (!(limit >= 0)) throw new StorageInputError('options.limit', `must be a non-negative number, got ${String(limit)}`);
  return limit === Infinity ? Infinity : Math.floor(limit);
}

export function touchesAny(episode: Episode, paths: readonly string[]): boolean {
  return episode.files.some((file) => {
    const path = normalizePath(file.path);
    return paths.some((wanted) => pathsMatch(path, wanted));
  });
}

/** Candidates from a basename lookup → the matching ones, deduplicated, newest first, limited. */
export function selectByPaths(candidates: Iterable<Episode>, paths: readonly string[], limit: number): Episode[] {
  const byId = new Map<string, Episode>();
  for (const episode of candidates) if (!byId.has(episode.id) && touchesAny(episode, paths)) byId.set(episode.id, episode);
  const sorted = [...byId.values()].sort(compareEpisodesNewestFirst);
  return limit === Infinity ? sorted : sorted.slice(0, limit);
}

/** Every backend sorts in JavaScript with the one comparator, so all list alike whatever their key order. */
export function newestFirst(episodes: Episode[]): Episode[] {
  return episodes.sort(compareEpisodesNewestFirst);
}
