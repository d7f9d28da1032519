import { ApiError } from './api-error.ts';

/** Episodes per page when the caller names no `limit`; at most MAX_EPISODE_PAGE. */
export const DEFAULT_EPISODE_PAGE = 100;
export const MAX_EPISODE_PAGE = 1000;

/** Where the next page starts: after the episode with this id, or (if it is gone) at this position. */
export interface EpisodeCursor {
  readonly after: string;
  readonly offset: number;
}

const CURSOR_VERSION = 1;

const toBase64Url = (text: string): string =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export function encodeEpisodeCursor(cursor: EpisodeCursor): string {
  return toBase64Url(JSON.stringify({ v: CURSOR_VERSION, after: cursor.after, offset: cursor.offset }));
}

/** Reads a cursor this API handed out; anything else is a 400 naming `cursor`. */
export function decodeEpisodeCursor(text: string): EpisodeCursor {
  const invalid = () =>
    new ApiError('invalid-request', 'cursor: not a cursor this API handed out; pass nextCursor as given', {
      field: 'cursor',
    });
  let value: unknown;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    value = JSON.parse(
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
        Uint8Array.from(binary, (character) => character.charCodeAt(0)),
      ),
    );
  } catch {
    throw invalid();
  }
  const cursor = value as { v?: unknown; after?: unknown; offset?: unknown } | null;
  if (
    !cursor ||
    cursor.v !== CURSOR_VERSION ||
    typeof cursor.after !== 'string' ||
    !Number.isSafeInteger(cursor.offset) ||
    (cursor.offset as number) < 0
  )
    throw invalid();
  return { after: cursor.after, offset: cursor.offset as number };
}

/** One page of an ordered list: from the cursor on, `limit` items, and the cursor after them (null at the end). */
export function pageOf<T extends { readonly id: string }>(
  ordered: readonly T[],
  limit: number,
  cursor: EpisodeCursor | undefined,
): { readonly items: T[]; readonly nextCursor: string | null } {
  let start = 0;
  if (cursor) {
    const found = ordered.findIndex((item) => item.id === cursor.after);
    start = found >= 0 ? found + 1 : Math.min(cursor.offset, ordered.length);
  }
  const items = ordered.slice(start, start + limit);
  const end = start + items.length;
  return {
    items,
    nextCursor:
      end < ordered.length && items.length
        ? encodeEpisodeCursor({ after: items[items.length - 1].id, offset: end })
        : null,
  };
}
