/** Episodes harvested from loaded sessions, kept in IndexedDB: listed newest first and searched by path. */
import type { ProviderMessage } from '../../src/index.ts';

export class EpisodesPanel {
  constructor(
    private readonly list: HTMLElement,
    private readonly search: HTMLInputElement,
    private readonly forget: HTMLButtonElement,
    private readonly fail: (message: string) => void,
  ) {}

  async harvest(_messages: readonly ProviderMessage[], _name: string): Promise<void> {}
}
