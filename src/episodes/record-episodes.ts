import { pathsMatch } from '../text/normalize-path.ts';
import { isOlderEpisode } from './episode-order.ts';
import type { EpisodeStore } from './episode-store.ts';
import type { Episode, EpisodeConclusion } from './types.ts';

export interface RecordEpisodesResult {
  /** Episodes written (inserted or replaced). */
  readonly recorded: number;
  /** Conclusions newly marked superseded, in the new episodes and in stored ones. */
  readonly superseded: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type WorkingEpisode = Omit<Mutable<Episode>, 'conclusions'> & { conclusions: Array<Mutable<EpisodeConclusion>> };

const copy = (episode: Episode): WorkingEpisode => JSON.parse(JSON.stringify(episode)) as WorkingEpisode;

function overlaps(left: readonly string[], right: readonly string[]): boolean {
  return left.some((path) => right.some((other) => pathsMatch(path, other)));
}

/** An episode whose every conclusion went stale points at the work that made the last one stale. */
function settleEpisodeMark(episode: WorkingEpisode): void {
  const live = episode.conclusions.some((conclusion) => conclusion.supersededBy === undefined);
  if (!episode.conclusions.length || live) {
    delete episode.supersededBy;
    return;
  }
  const latest = episode.conclusions.reduce((best, conclusion) =>
    conclusion.messageIndex > best.messageIndex ? conclusion : best,
  );
  episode.supersededBy = latest.supersededBy;
}

/**
 * Stores episodes and applies supersession both ways, so the result does not depend on the order
 * episodes arrive in: a new episode marks older stored conclusions stale, and a back-filled old
 * episode is marked by newer stored ones. Each conclusion keeps its nearest newer superseder.
 * Rules in `types.ts`. Recording the same episodes again changes nothing.
 */
export async function recordEpisodes(store: EpisodeStore, episodes: readonly Episode[]): Promise<RecordEpisodesResult> {
  const working = new Map<string, WorkingEpisode>();
  for (const episode of episodes) {
    const fresh = copy(episode);
    // a re-derived episode keeps the marks its stored version earned, message for message
    const stored = await store.get(episode.id);
    for (const conclusion of fresh.conclusions) {
      const mark = stored?.conclusions.find((old) => old.messageIndex === conclusion.messageIndex)?.supersededBy;
      if (conclusion.supersededBy === undefined && mark !== undefined) conclusion.supersededBy = mark;
    }
    settleEpisodeMark(fresh);
    working.set(fresh.id, fresh);
  }
  const incoming = [...working.values()];
  await store.put(incoming);
  const dirty = new Set<string>();
  let superseded = 0;
  const workingCopy = (episode: Episode): WorkingEpisode => {
    let known = working.get(episode.id);
    if (known === undefined) {
      known = copy(episode);
      working.set(episode.id, known);
    }
    return known;
  };
  const lookup = async (id: string): Promise<Episode | undefined> => working.get(id) ?? (await store.get(id));

  const supersede = async (older: WorkingEpisode, newer: WorkingEpisode) => {
    const changed = newer.files.filter((file) => file.how !== 'read').map((file) => file.path);
    const concluded = newer.conclusions.flatMap((conclusion) => conclusion.paths);
    const warned = newer.conclusions
      .filter((conclusion) => conclusion.kind === 'hazard')
      .flatMap((conclusion) => conclusion.paths);
    for (const conclusion of older.conclusions) {
      const stale =
        conclusion.kind === 'hazard'
          ? overlaps(conclusion.paths, warned)
          : overlaps(conclusion.paths, concluded) || overlaps(conclusion.paths, changed);
      if (!stale || conclusion.supersededBy === newer.id) continue;
      if (conclusion.supersededBy !== undefined) {
        const current = await lookup(conclusion.supersededBy);
        if (current !== undefined && !isOlderEpisode(newer, current)) continue;
      } else superseded++;
      conclusion.supersededBy = newer.id;
      dirty.add(older.id);
    }
  };

  for (const self of incoming) {
    const paths = [
      ...new Set([
        ...self.files.map((file) => file.path),
        ...self.conclusions.flatMap((conclusion) => conclusion.paths),
      ]),
    ];
    if (!paths.length) continue;
    for (const found of await store.findByPaths(paths, { limit: Infinity })) {
      if (found.id === self.id) continue;
      const other = workingCopy(found);
      if (isOlderEpisode(other, self)) await supersede(other, self);
      else if (isOlderEpisode(self, other)) await supersede(self, other);
    }
  }
  const changed: Episode[] = [];
  for (const id of [...dirty].sort()) {
    const episode = working.get(id) as WorkingEpisode;
    settleEpisodeMark(episode);
    changed.push(episode);
  }
  if (changed.length) await store.put(changed);
  return { recorded: incoming.length, superseded };
}
