export type {
  ConclusionKind,
  Episode,
  EpisodeConclusion,
  EpisodeFile,
  EpisodeOutcome,
  EpisodeSpan,
  FileTouch,
} from './types.ts';
export { MAX_CONCLUSION_CHARS, MAX_REQUEST_CHARS } from './types.ts';
export { deriveEpisodesFromMessages, type DeriveEpisodesOptions } from './derive-episodes.ts';
export { episodeId } from './episode-id.ts';
export { compareEpisodesNewestFirst, isOlderEpisode } from './episode-order.ts';
export {
  DEFAULT_FIND_LIMIT,
  type EpisodeStore,
  type FindByPathsOptions,
  type ListEpisodesOptions,
} from './episode-store.ts';
export { recordEpisodes, type RecordEpisodesResult } from './record-episodes.ts';
export {
  EPISODE_CARD_OPENING,
  recallEpisodeCards,
  type EpisodeCard,
  type EpisodeCardOptions,
} from './recall-episode-cards.ts';
