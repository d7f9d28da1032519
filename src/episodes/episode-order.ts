import type { Episode } from './types.ts';

const timeOf = (episode: Episode): number | undefined => episode.span.endedAt ?? episode.span.startedAt;

/**
 * True when `earlier` certainly came before `later`: a smaller span start in the same session,
 * else an earlier known time. Unordered pairs (other sessions, no clock) are never "older".
 */
export function isOlderEpisode(earlier: Episode, later: Episode): boolean {
  if (earlier.id === later.id) return false;
  if (earlier.sessionId === later.sessionId) return earlier.span.startIndex < later.span.startIndex;
  const before = timeOf(earlier);
  const after = timeOf(later);
  return before !== undefined && after !== undefined && before < after;
}

/**
 * A total, deterministic newest-first order for listings: known times first (newest first), then
 * session id, then later spans first, then id. Backends sort with it so every store lists alike.
 */
export function compareEpisodesNewestFirst(left: Episode, right: Episode): number {
  const leftTime = timeOf(left);
  const rightTime = timeOf(right);
  if (leftTime !== undefined || rightTime !== undefined) {
    if (leftTime === undefined) return 1;
    if (rightTime === undefined) return -1;
    if (leftTime !== rightTime) return rightTime - leftTime;
  }
  if (left.sessionId !== right.sessionId) return left.sessionId < right.sessionId ? -1 : 1;
  if (left.span.startIndex !== right.span.startIndex) return right.span.startIndex - left.span.startIndex;
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}
