/** A tiny element builder: attributes and children, no framework. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) if (child !== '') node.append(child);
  return node;
}

export function clear(node: Element): void {
  node.replaceChildren();
}

export const formatTokens = (tokens: number | undefined): string =>
  tokens === undefined ? '–' : Math.round(tokens).toLocaleString('en-US');
export const formatCost = (dollars: number | undefined): string => (dollars === undefined ? '–' : dollars.toFixed(4));

/**
 * The number a person reads for a raw message: from 1, as the fold header written into the view
 * (`[warpfold fold · messages 3–108 …]`) counts. Indexes stay 0-based in code and data attributes.
 */
export const messageNumber = (index: number): number => index + 1;

/** "messages 3–108" for the raw messages [start, end), numbered as `messageNumber`. */
export const messageRange = (start: number, end: number): string => `messages ${messageNumber(start)}–${end}`;
