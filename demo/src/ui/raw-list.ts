/**
 * The raw history pane as a virtual list: fixed-height rows, only the rows in sight are in the
 * DOM, so a 2,000-message history costs the same to scrub as a 20-message one. The row asked for
 * ("show in raw history") opens in full in the detail box above the list.
 */
import type { ProviderMessage } from '../../../src/index.ts';
import { clipText } from './clip-text.ts';
import { clear, element, messageNumber } from './dom.ts';
import { messageRole, messageText } from './message-text.ts';

/** Row height in px: a role line and one line of text. */
const ROW = 46;
const OVERSCAN = 6;

export class RawList {
  private messages: readonly ProviderMessage[] = [];
  private previews: string[] = [];
  private visible = 0;
  private readonly spacer = element('div', { class: 'raw-spacer' });
  /** Rows in the DOM by message index: kept while in sight, so a focused row stays focused. */
  private readonly rows = new Map<number, HTMLElement>();
  private frame = 0;
  // scroll position and height as last seen, so scrubbing never reads layout
  private top = 0;
  private height = 600;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly detail: HTMLElement,
  ) {
    scroller.append(this.spacer);
    scroller.addEventListener('scroll', () => {
      this.top = scroller.scrollTop;
      this.schedule();
    });
    new ResizeObserver((entries) => {
      this.height = entries[0].contentRect.height || this.height;
      this.schedule();
    }).observe(scroller);
  }

  private scrollTo(top: number): void {
    this.top = Math.max(0, top);
    this.scroller.scrollTop = this.top;
  }

  load(messages: readonly ProviderMessage[]): void {
    this.messages = messages;
    this.previews = new Array(messages.length);
    this.visible = messages.length;
    this.detail.hidden = true;
    for (const row of this.rows.values()) row.remove();
    this.rows.clear();
    this.render();
  }

  /** Shows only the first `count` messages (what a call had seen), keeping the newest in sight. */
  showFirst(count: number): void {
    if (count === this.visible) return;
    const atEnd = this.top + this.height >= this.visible * ROW - ROW;
    this.visible = Math.min(count, this.messages.length);
    this.spacer.style.height = `${this.visible * ROW}px`;
    if (atEnd) this.scrollTo(this.visible * ROW - this.height);
    this.render();
  }

  /** Scrolls to message `index`, opens it in the detail box and focuses its row. */
  reveal(index: number): void {
    if (index < 0 || index >= this.messages.length) return;
    const top = index * ROW;
    if (top < this.top || top + ROW > this.top + this.height) this.scrollTo(top - this.height / 2);
    this.render();
    this.open(index);
    const row = document.getElementById(`raw-${index}`);
    if (row) {
      row.classList.add('flash');
      row.focus({ preventScroll: true });
      setTimeout(() => row.classList.remove('flash'), 1200);
    }
  }

  open(index: number): void {
    const message = this.messages[index];
    clear(this.detail);
    this.detail.append(
      element(
        'div',
        { class: 'item-head' },
        element('span', { class: 'role' }, `#${messageNumber(index)} ${messageRole(message)}`),
        element('button', { type: 'button', class: 'close', 'aria-label': 'Close the message' }, '×'),
      ),
      element('pre', { class: 'mono', 'data-testid': 'raw-detail', 'data-index': String(index) }, messageText(message)),
    );
    (this.detail.querySelector('button.close') as HTMLButtonElement).onclick = () => (this.detail.hidden = true);
    this.detail.hidden = false;
  }

  private preview(index: number): string {
    let text = this.previews[index];
    if (text === undefined) {
      const full = messageText(this.messages[index]);
      text = this.previews[index] = clipText(full, 300);
    }
    return text;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    this.spacer.style.height = `${this.visible * ROW}px`;
    const first = Math.max(0, Math.floor(this.top / ROW) - OVERSCAN);
    const last = Math.min(this.visible, Math.ceil((this.top + this.height) / ROW) + OVERSCAN);
    for (const [index, row] of this.rows) {
      if (index >= first && index < last) continue;
      row.remove();
      this.rows.delete(index);
    }
    for (let index = first; index < last; index++) {
      if (this.rows.has(index)) continue;
      const message = this.messages[index];
      const row = element(
        'button',
        {
          type: 'button',
          class: 'raw-row',
          id: `raw-${index}`,
          'data-index': String(index),
          style: `top: ${index * ROW}px`,
        },
        element(
          'span',
          { class: 'item-head' },
          element('span', { class: 'role' }, `#${messageNumber(index)} ${messageRole(message)}`),
        ),
        element('span', { class: 'raw-preview mono' }, this.preview(index)),
      );
      row.onclick = () => this.open(index);
      this.rows.set(index, row);
      this.spacer.append(row);
    }
  }
}
