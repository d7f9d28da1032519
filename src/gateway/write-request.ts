import type { ProviderMessage } from '../messages/types.ts';
import type { JsonSpan } from './json-spans.ts';

export interface RequestWrite {
  /** The request body as the client sent it. */
  readonly text: string;
  /** The span of the history field's array in `text`. */
  readonly historySpan: JsonSpan;
  /** Each raw history message and the span of its text. */
  readonly rawSpans: ReadonlyMap<ProviderMessage, JsonSpan>;
  readonly view: readonly ProviderMessage[];
  readonly sealedBoundary: number | null;
  /** View messages changed after the fold (breakpoints), by index. */
  readonly replaced: ReadonlyMap<number, ProviderMessage>;
  /** Top-level fields to add, when the client sent none (`prompt_cache_key`). */
  readonly added?: Readonly<Record<string, string>>;
}

/**
 * The request with its history replaced by the view, spliced into the client's own text: every
 * other field keeps its bytes. Raw messages after the sealed boundary keep the client's text;
 * the sealed prefix is written by `JSON.stringify`, so it is the same bytes on every call of an
 * epoch, and after a restart, whichever request's objects it was built from.
 */
export function writeRequest(write: RequestWrite): string {
  const { text, historySpan, rawSpans, view, sealedBoundary, replaced } = write;
  const parts: string[] = new Array(view.length);
  for (let index = 0; index < view.length; index++) {
    const changed = replaced.get(index);
    if (changed !== undefined) {
      parts[index] = JSON.stringify(changed);
      continue;
    }
    const message = view[index];
    const span = sealedBoundary !== null && index <= sealedBoundary ? undefined : rawSpans.get(message);
    parts[index] = span === undefined ? JSON.stringify(message) : text.slice(span[0], span[1]);
  }
  let body = `${text.slice(0, historySpan[0])}[${parts.join(',')}]${text.slice(historySpan[1])}`;
  const added = Object.entries(write.added ?? {});
  if (added.length > 0) {
    const close = body.lastIndexOf('}');
    const opening = body.slice(0, close).trimEnd();
    const separator = opening.endsWith('{') ? '' : ',';
    body = `${opening}${separator}${added.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}${body.slice(close)}`;
  }
  return body;
}
