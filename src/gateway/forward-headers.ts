import { type CallMarks, EPOCH_HEADER, SESSION_HEADER, VERDICT_HEADER } from './verdict.ts';

/** Headers that belong to one connection, not to the request: never forwarded either way. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/**
 * The client's headers for the provider, every one as sent (auth, versions, betas, user agent,
 * session headers) but the connection's own and the gateway's `x-warpfold-*`; a body the gateway
 * rewrote goes out uncompressed, so its `content-encoding` goes too.
 */
export function upstreamHeaders(headers: Headers, rewritten: boolean): Headers {
  const out = new Headers();
  headers.forEach((value, name) => {
    if (HOP_BY_HOP.has(name) || name.startsWith('x-warpfold-')) return;
    if (rewritten && name === 'content-encoding') return;
    out.append(name, value);
  });
  return out;
}

/** The provider's headers for the client, but the connection's own; the verdict added, the call's session, and why it sealed a new prefix. */
export function clientHeaders(headers: Headers, verdict: string, marks: CallMarks = {}): Headers {
  const out = new Headers();
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) out.append(name, value);
  });
  out.set(VERDICT_HEADER, verdict);
  if (marks.session !== undefined) out.set(SESSION_HEADER, marks.session);
  if (marks.epochReason !== undefined) out.set(EPOCH_HEADER, marks.epochReason);
  return out;
}
