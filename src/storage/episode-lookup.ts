import { compareEpisodesNewestFirst } from '../episodes/episode-order.ts';
import { DEFAULT_FIND_LIMIT, type FindByPathsOptions } from '../episodes/episode-store.ts';
import type { Episode } from '../episodes/types.ts';
import { basenameOf, normalizePath, pathsMatch } from '../text/normalize-path.ts';
import { StorageInputError } from './storage-errors.ts';

/**
 * Sorts exactly as `compareEpisodesNewestFirst`: `[0, -time]` for a known time (newest first),
 * `[1, 0]` without one; then session id, later span starts first, then id.
 */
export type EpisodeOrderKey = [number, number, string, number, string];

export function episodeOrderKey(episode: Episode): EpisodeOrderKey {
  const time = episode.span.endedAt ?? episode.span.startedAt;
  return [
    time === undefined ? 1 : 0,
    time === undefined ? 0 : -time,
    episode.sessionId,
    -episode.span.startIndex,
    episode.id,
  ];
}

export function compareOrderKeys(left: EpisodeOrderKey, right: EpisodeOrderKey): number {
  for (let index = 0; index < left.length; index++) {
    const a = left[index];
    const b = right[index];
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/**
 * One row of a path index: an episode's normalised paths under one basename and its order key, so
 * recall can filter and rank candidates without reading (and parsing) their records.
 */
export interface PathIndexEntry {
  readonly id: string;
  readonly paths: readonly string[];
  readonly order: EpisodeOrderKey;
}

/** Basename → the episode's normalised paths with that basename. */
export function episodePathsByBasename(episode: Episode): Map<string, string[]> {
  const byBasename = new Map<string, string[]>();
  for (const file of episode.files) {
    const path = normalizePath(file.path);
    const basename = basenameOf(path);
    const paths = byBasename.get(basename);
    if (paths === undefined) byBasename.set(basename, [path]);
    else if (!paths.includes(path)) paths.push(path);
  }
  return byBasename;
}

/** Ids of the index entries that match a wanted path, deduplicated, newest first. */
export function rankIndexEntries(entries: Iterable<PathIndexEntry>, paths: readonly string[]): string[] {
  const best = new Map<string, PathIndexEntry>();
  for (const entry of entries)
    if (!best.has(entry.id) && entry.paths.some((path) => paths.some((wanted) => pathsMatch(path, wanted))))
      best.set(entry.id, entry);
  return [...best.values()].sort((left, right) => compareOrderKeys(left.order, right.order)).map((entry) => entry.id);
}

/**
 * Reads ranked ids in order until `limit` episodes that really match are found: a stale or corrupt
 * record is skipped (its read reports it), so the index only ever narrows what is read.
 */
export async function takeRanked(
  ids: readonly string[],
  paths: readonly string[],
  limit: number,
  read: (id: string) => Promise<Episode | undefined>,
): Promise<Episode[]> {
  const found: Episode[] = [];
  // as many reads at once as episodes are still wanted; ranked order decides which are kept
  for (let next = 0; next < ids.length && found.length < limit; ) {
    const chunk = ids.slice(next, (next += Math.min(limit - found.length, ids.length)));
    for (const episode of await Promise.all(chunk.map(read)))
      if (episode && touchesAny(episode, paths) && found.length < limit) found.push(episode);
  }
  return newestFirst(found);
}

/** The normalised, non-empty paths asked for, and the basenames to look up for them. */
export function wantedPaths(paths: readonly string[]): { paths: string[]; basenames: string[] } {
  const wanted = paths.map(normalizePath).filter((path) => path !== '');
  return { paths: wanted, basenames: [...new Set(wanted.map(basenameOf))] };
}

export function findLimit(options: FindByPathsOptions | undefined): number {
  const limit = options?.limit ?? DEFAULT_FIND_LIMIT;
  if (!(limit >= 0))
    throw new StorageInputError('options.limit', `must be a non-negative number, got ${String(limit)}`);
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
  for (const episode of candidates)
    if (!byId.has(episode.id) && touchesAny(episode, paths)) byId.set(episode.id, episode);
  const sorted = [...byId.values()].sort(compareEpisodesNewestFirst);
  return limit === Infinity ? sorted : sorted.slice(0, limit);
}

/** Every backend sorts in JavaScript with the one comparator, so all list alike whatever their key order. */
export function newestFirst(episodes: Episode[]): Episode[] {
  return episodes.sort(compareEpisodesNewestFirst);
}
