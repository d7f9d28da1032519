/** Episodes harvested from loaded sessions, kept in IndexedDB: listed newest first and searched by path. */
import {
  deriveEpisodesFromMessages,
  recordEpisodes,
  type Episode,
  type EpisodeStore,
} from '../../src/episodes/index.ts';
import type { ProviderMessage } from '../../src/index.ts';
import { isDeviceName, userWords } from './episodes/episode-text.ts';
import { clipText } from './ui/clip-text.ts';
import { clear, element, messageRange } from './ui/dom.ts';

export class EpisodesPanel {
  private store: Promise<EpisodeStore> | null = null;

  constructor(
    private readonly open: () => Promise<EpisodeStore>,
    private readonly list: HTMLElement,
    private readonly search: HTMLInputElement,
    forget: HTMLButtonElement,
    private readonly fail: (message: string) => void,
  ) {
    let typing: ReturnType<typeof setTimeout> | undefined;
    search.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => void this.refresh(), 150);
    });
    forget.addEventListener('click', () => void this.forgetAll());
    void this.refresh();
  }

  private storeOf(): Promise<EpisodeStore> {
    this.store ??= this.open();
    return this.store;
  }

  /** Derives the session's episodes and records them (a re-load updates them in place: ids hash the session and the span start). */
  async harvest(messages: readonly ProviderMessage[], sessionId: string): Promise<void> {
    const episodes = deriveEpisodesFromMessages(messages, { sessionId });
    await recordEpisodes(await this.storeOf(), episodes);
    await this.refresh();
  }

  async refresh(): Promise<void> {
    try {
      const store = await this.storeOf();
      const query = this.search.value.trim();
      const episodes = query ? await store.findByPaths([query], { limit: 50 }) : (await store.list()).slice(0, 50);
      this.render(episodes, query);
    } catch (error) {
      this.fail(`Episodes: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async forgetAll(): Promise<void> {
    const store = await this.storeOf();
    for (const episode of await store.list()) await store.delete(episode.id);
    await this.refresh();
  }

  private render(episodes: readonly Episode[], query: string): void {
    clear(this.list);
    if (!episodes.length) {
      this.list.append(
        element('li', { class: 'muted' }, query ? `No episode touched ${query}.` : 'No episodes yet: load a session.'),
      );
      return;
    }
    for (const episode of episodes) {
      const conclusion = episode.conclusions[episode.conclusions.length - 1];
      const files = episode.files.filter((file) => !isDeviceName(file.path));
      const request = episode.request ? userWords(episode.request) : '';
      this.list.append(
        element(
          'li',
          { 'data-episode': episode.id },
          element(
            'div',
            { class: 'item-head' },
            element('span', { class: 'role' }, episode.sessionId),
            messageRange(episode.span.startIndex, episode.span.endIndex),
            element('span', { class: 'badge' }, episode.outcome),
            episode.supersededBy ? element('span', { class: 'badge' }, 'superseded') : '',
          ),
          element('div', { class: 'episode-title' }, request ? clipText(request, 200) : '(no request)'),
          element(
            'div',
            { class: 'files mono' },
            files
              .slice(0, 8)
              .map((file) => `${file.how} ${file.path}`)
              .join(' · ') + (files.length > 8 ? ` · +${files.length - 8}` : ''),
          ),
          conclusion ? element('div', { class: 'muted' }, `${conclusion.kind}: ${clipText(conclusion.text, 200)}`) : '',
        ),
      );
    }
  }
}
