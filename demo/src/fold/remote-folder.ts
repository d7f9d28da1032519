/** Remote mode: each call is folded by a running fold endpoint (`POST /v1/sessions/:id/prepare`), not in this worker. */
import type { FoldOutcome, ProviderMessage } from '../../../src/index.ts';
import type { FoldSettings, RemoteEndpoint } from './protocol.ts';
import type { Folder } from './replay.ts';

export class RemoteFoldError extends Error {
  override readonly name = 'RemoteFoldError';
}

export function remoteFolder(endpoint: RemoteEndpoint, settings: FoldSettings, sessionId: string): Folder {
  const base = endpoint.url.replace(/\/+$/, '');
  const url = `${base}/v1/sessions/${encodeURIComponent(sessionId)}/prepare`;
  return async (
    history: readonly ProviderMessage[],
    measuredInputTokens: number | undefined,
    now: number,
  ): Promise<FoldOutcome> => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(endpoint.token ? { authorization: `Bearer ${endpoint.token}` } : {}),
        },
        body: JSON.stringify({
          messages: history,
          // the replay's clock, so pauses past the freeze TTL fold as they do locally
          now,
          ...(measuredInputTokens === undefined ? {} : { measuredInputTokens }),
          options: {
            pressureCeiling: settings.ceiling,
            freezeTtlMs: settings.freezeTtlSeconds * 1000,
            ...(settings.recall === 'auto' ? {} : { recall: settings.recall === 'on' }),
          },
        }),
      });
    } catch (error) {
      throw new RemoteFoldError(`could not reach ${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok)
      throw new RemoteFoldError(`${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    const body = (await response.json()) as FoldOutcome;
    if (!Array.isArray(body.messages) || typeof body.stats !== 'object')
      throw new RemoteFoldError(`${url} answered without messages and stats`);
    return {
      messages: body.messages,
      cacheHot: body.cacheHot === true,
      sealedBoundary: body.sealedBoundary ?? null,
      foldedRange: body.foldedRange ?? null,
      stats: body.stats,
    };
  };
}
