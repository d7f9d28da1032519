import { FoldOptionsError } from '../errors.ts';
import type { TokenCounter } from '../messages/transcript.ts';
import { normalizePath, pathsMatch } from '../text/normalize-path.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { compareEpisodesNewestFirst } from './episode-order.ts';
import type { EpisodeStore } from './episode-store.ts';
import type { Episode, EpisodeConclusion } from './types.ts';
import { headOf as safeHead } from '../text/safe-cut.ts';

export interface EpisodeCardOptions {
  /** Tokens all cards together may take. */
  readonly budgetTokens: number;
  /** Clock in ms; renders ages ("3h ago") instead of dates. */
  readonly now?: number;
  readonly countTokens?: TokenCounter;
  /** Default 5. */
  readonly maxCards?: number;
  /** Superseded conclusions: left out (default), or shown as one marked line each. */
  readonly superseded?: 'drop' | 'mark';
  /** Episodes not to show, e.g. the current session's own, still in view. */
  readonly excludeEpisodeIds?: readonly string[];
  /** Episodes read from the store before ranking. Default 50. */
  readonly candidateLimit?: number;
}

export interface EpisodeCard {
  readonly episodeId: string;
  readonly sessionId: string;
  readonly outcome: Episode['outcome'];
  /** The requested paths this episode touched. */
  readonly matchedPaths: readonly string[];
  readonly text: string;
  readonly tokens: number;
}

export const EPISODE_CARD_OPENING = '[warpfold episode · ';

const MINIMUM_CARD_TOKENS = 40;
// A card first tries conclusions whole, then shorter heads, before giving up its place.
const CONCLUSION_WIDTHS = [Number.POSITIVE_INFINITY, 800, 400, 200, 100];

function age(milliseconds: number): string {
  const minutes = Math.floor(milliseconds / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

function when(episode: Episode, now: number | undefined): string {
  const at = episode.span.endedAt ?? episode.span.startedAt;
  if (at === undefined) return `messages ${episode.span.startIndex}–${episode.span.endIndex - 1}`;
  return now === undefined ? `ended ${new Date(at).toISOString()}` : `ended ${age(Math.max(0, now - at))}`;
}

function headOf(text: string, width: number): string {
  return text.length <= width ? text : `${safeHead(text, width)}…`;
}

// Edits of existing files say more about an episode than new scratch files, and those more than reads.
const TOUCH_ORDER = { edited: 0, created: 1, read: 2 } as const;

function filesLine(episode: Episode, matched: readonly string[]): string {
  const isMatched = (path: string) => matched.some((other) => pathsMatch(other, path));
  const files = [...episode.files].sort(
    (a, b) => Number(isMatched(b.path)) - Number(isMatched(a.path)) || TOUCH_ORDER[a.how] - TOUCH_ORDER[b.how],
  );
  const shown = files.slice(0, 6);
  const groups: string[] = [];
  for (const how of ['edited', 'created', 'read'] as const) {
    const paths = shown.filter((file) => file.how === how).map((file) => file.path);
    if (paths.length) groups.push(`${how} ${paths.join(', ')}`);
  }
  const more = files.length - shown.length;
  return groups.length ? `files: ${groups.join('; ')}${more > 0 ? ` (+${more} more)` : ''}` : '';
}

function renderCard(
  episode: Episode,
  conclusions: readonly EpisodeConclusion[],
  matched: readonly string[],
  width: number,
  now: number | undefined,
): string {
  const lines = [
    `${EPISODE_CARD_OPENING}${episode.id} · ${episode.outcome} · session ${episode.sessionId} · ${when(episode, now)}]`,
  ];
  // the first line that says something: a wrapper tag such as `<pr_description>` does not
  const request = episode.request.split('\n').find((line) => line.trim() !== '' && !/^<\/?[\w-]+>$/.test(line.trim()));
  if (request) lines.push(`asked: ${headOf(request.trim(), 160)}`);
  const files = filesLine(episode, matched);
  if (files) lines.push(files);
  for (const conclusion of conclusions) {
    if (conclusion.supersededBy !== undefined)
      lines.push(
        `⊘ superseded by ${conclusion.supersededBy}: ${headOf(conclusion.text.split('\n')[0], Math.min(width, 120))}`,
      );
    else
      lines.push(
        conclusion.kind === 'answer'
          ? `final answer: ${headOf(conclusion.text, width)}`
          : headOf(conclusion.text, width),
      );
  }
  return lines.join('\n');
}

/**
 * Cards of earlier episodes for the files a session is touching: episodes with a live conclusion
 * about those files first, then other live knowledge, then bare touch records; newest first within
 * each. Stale conclusions are dropped (or marked); cards fill the budget in order, a card that
 * does not fit shortening its conclusions before yielding its place.
 */
export async function recallEpisodeCards(
  store: EpisodeStore,
  paths: readonly string[],
  options: EpisodeCardOptions,
): Promise<EpisodeCard[]> {
  const budget = options.budgetTokens;
  if (!(Number.isFinite(budget) && budget >= 0))
    throw new FoldOptionsError('budgetTokens', `budgetTokens must be a non-negative number, got ${String(budget)}`);
  const countTokens = options.countTokens ?? estimateTokens;
  const maxCards = options.maxCards ?? 5;
  const mark = options.superseded === 'mark';
  const excluded = new Set(options.excludeEpisodeIds ?? []);
  const wanted = [...new Set(paths.map(normalizePath).filter((path) => path !== ''))];
  if (!wanted.length || maxCards <= 0 || budget < MINIMUM_CARD_TOKENS) return [];
  const found = await store.findByPaths(wanted, { limit: options.candidateLimit ?? 50 });
  const ranked = found
    .filter((episode) => !excluded.has(episode.id) && (mark || episode.supersededBy === undefined))
    .map((episode) => {
      const matched = wanted.filter((path) => episode.files.some((file) => pathsMatch(file.path, path)));
      const live = episode.conclusions.filter((conclusion) => conclusion.supersededBy === undefined);
      const aboutMatched = (conclusion: EpisodeConclusion) =>
        conclusion.paths.some((path) => matched.some((other) => pathsMatch(path, other)));
      const group = live.some(aboutMatched) ? 0 : live.length ? 1 : 2;
      const shown = [...episode.conclusions]
        .filter((conclusion) => mark || conclusion.supersededBy === undefined)
        .sort(
          (a, b) =>
            Number(b.supersededBy === undefined) - Number(a.supersededBy === undefined) ||
            Number(aboutMatched(b)) - Number(aboutMatched(a)) ||
            a.messageIndex - b.messageIndex,
        );
      return { episode, matched, group, shown };
    })
    .sort((a, b) => a.group - b.group || compareEpisodesNewestFirst(a.episode, b.episode));
  const cards: EpisodeCard[] = [];
  let spent = 0;
  for (const { episode, matched, shown } of ranked) {
    if (cards.length >= maxCards || budget - spent < MINIMUM_CARD_TOKENS) break;
    for (const width of CONCLUSION_WIDTHS) {
      const text = renderCard(episode, shown, matched, width, options.now);
      const tokens = countTokens(text);
      if (tokens > budget - spent) continue;
      cards.push({
        episodeId: episode.id,
        sessionId: episode.sessionId,
        outcome: episode.outcome,
        matchedPaths: matched,
        text,
        tokens,
      });
      spent += tokens;
      break;
    }
  }
  return cards;
}
