import type { Episode } from './types.ts';

export interface FindByPathsOptions {
  /** Most episodes to return. Default 100; `Infinity` for all. */
  readonly limit?: number;
}

export interface ListEpisodesOptions {
  readonly sessionId?: string;
}

/**
 * Where episodes live. Small on purpose so IndexedDB, a Durable Object or KV can implement it:
 * values are JSON documents under their string id, and one path index maps each file path and
 * its basename to episode ids. Every method is async; stores hand out copies, never live objects.
 *
 * `findByPaths` matches a file under any spelling `pathsMatch` accepts (`/repo/a/b.py` and
 * `a/b.py`), which a backend gets by looking up the basename key and filtering. Results of
 * `findByPaths` and `list` come newest first per `compareEpisodesNewestFirst`.
 */
export interface EpisodeStore {
  /** Inserts or replaces by id. */
  put(episodes: readonly Episode[]): Promise<void>;
  get(id: string): Promise<Episode | undefined>;
  findByPaths(paths: readonly string[], options?: FindByPathsOptions): Promise<Episode[]>;
  list(options?: ListEpisodesOptions): Promise<Episode[]>;
  /** True when an episode was removed. */
  delete(id: string): Promise<boolean>;
}

export const DEFAULT_FIND_LIMIT = 100;
