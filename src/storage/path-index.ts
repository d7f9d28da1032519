import type { Episode } from '../episodes/types.ts';
import { fnv1a } from '../text/hash.ts';
import {
  episodeOrderKey,
  episodePathsByBasename,
  type EpisodeOrderKey,
  type PathIndexEntry,
} from './episode-lookup.ts';
import type { DriverWrite } from './storage-driver.ts';

/**
 * The path index, as keys every driver holds: `episode-path/<basename>/<episode id>`, whose value is
 * `{"paths":[...],"order":[...]}` (the episode's normalised paths with that basename, and its order
 * key), so recall filters and ranks candidates from one prefix listing and reads only the records it
 * returns. A basename over 200 UTF-8 bytes goes under `episode-path-hash/<fnv1a>/` instead, to keep
 * keys short (Workers KV allows 512 bytes). An index key may outlive its episode for a moment:
 * lookups re-check every record they read, so the index only ever narrows what is read.
 */
const PLAIN = 'episode-path/';
const HASHED = 'episode-path-hash/';
const MAX_PLAIN_BASENAME_BYTES = 200;

const encoder = new TextEncoder();

/** The key prefix every index key of `basename` starts with; a basename never holds a slash. */
export function basenamePrefix(basename: string): string {
  if (basename.length * 3 <= MAX_PLAIN_BASENAME_BYTES || encoder.encode(basename).length <= MAX_PLAIN_BASENAME_BYTES)
    return `${PLAIN}${basename}/`;
  return `${HASHED}${fnv1a(basename).toString(36)}/`;
}

/** The index writes of one episode, keyed by index key. */
export function indexWrites(episode: Episode): DriverWrite[] {
  const order = episodeOrderKey(episode);
  return [...episodePathsByBasename(episode)].map(([basename, paths]) => ({
    key: basenamePrefix(basename) + episode.id,
    value: JSON.stringify({ paths, order }),
  }));
}

/** The entry an index value holds, or undefined when it holds none this code reads (an older layout). */
export function readIndexEntry(id: string, value: string | undefined): PathIndexEntry | undefined {
  let parsed: { paths?: unknown; order?: unknown };
  try {
    parsed = JSON.parse(value ?? '') as typeof parsed;
  } catch {
    return undefined;
  }
  const { paths, order } = parsed ?? {};
  if (
    !Array.isArray(paths) ||
    !paths.every((path) => typeof path === 'string') ||
    !Array.isArray(order) ||
    order.length !== 5
  )
    return undefined;
  return { id, paths, order: order as EpisodeOrderKey };
}
