import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { FoldInputError, FoldSession, ProviderInputError, type ProviderMessage } from '../../src/index.ts';
import { resolveContextBudget } from '../../src/budget/index.ts';
import { prepareAnthropicCachedRequest } from '../../src/providers/anthropic/index.ts';
import { ApiError, unwrapRpc } from '../api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { sessionObjectName } from '../durable-object-names.ts';
import { historyDigest } from '../history-digest.ts';
import { AnthropicPrepareRequestSchema, AnthropicPrepareResponseSchema } from '../schemas.ts';
import { sessionCallSettings } from '../session-call-settings.ts';
import { toFoldSessionOptions, withDefaultCeiling, type DefaultBudget } from '../session-options.ts';
import { bearer, errorResponses, GUARDED_BODY } from './error-responses.ts';

const anthropicRoute = createRoute({
  method: 'post',
  path: '/v1/anthropic/prepare',
  summary: 'Fold (through a session, or once) and return a ready Anthropic Messages request with cache breakpoints',
  security: bearer,
  request: { body: { required: true, content: { 'application/json': { schema: AnthropicPrepareRequestSchema } } } },
  responses: {
    200: {
      description: 'The request to send.',
      content: { 'application/json': { schema: AnthropicPrepareResponseSchema } },
    },
    ...errorResponses(...GUARDED_BODY, 409),
  },
});

interface PreparedView {
  readonly messages: ProviderMessage[];
  readonly cacheHot: boolean;
  readonly sealedBoundary: number | null;
  readonly stats: Record<string, unknown>;
  readonly digest: string;
  readonly length: number;
}

/** The request's own Claude model, when the budget tables know it: the ceiling then fits that model. */
function anthropicBudget(model: unknown): DefaultBudget | undefined {
  if (typeof model !== 'string') return undefined;
  try {
    resolveContextBudget({ engine: 'anthropic', model });
    return { engine: 'anthropic', model };
  } catch {
    return undefined;
  }
}

export function registerAnthropicRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(anthropicRoute, async (c) => {
    const { sessionId, messages, append, prefixDigest, measuredInputTokens, hardEpoch, options, now, ...cache } =
      c.req.valid('json');
    const foldCall = {
      ...(measuredInputTokens !== undefined ? { measuredInputTokens } : {}),
      ...(hardEpoch ? { hardEpoch } : {}),
    };
    const defaultBudget = anthropicBudget(cache.params?.model) ?? c.var.config.defaultBudget;
    let view: PreparedView;
    if (sessionId !== undefined) {
      const stub = c.env.SESSIONS.getByName(sessionObjectName(c.var.caller.tenant, sessionId));
      const settings = sessionCallSettings({ ...c.var.config, defaultBudget }, options);
      const call = {
        tenant: c.var.caller.tenant,
        sessionId,
        ...(messages ? { messages } : {}),
        ...(append ? { append } : {}),
        ...(prefixDigest ? { prefixDigest } : {}),
        ...settings,
        ...(now !== undefined ? { now } : {}),
        ...foldCall,
      };
      view = JSON.parse(unwrapRpc(await stub.prepare(call))) as PreparedView;
    } else {
      const history = messages ?? [];
      const clock = now ?? Date.now();
      let outcome;
      try {
        outcome = new FoldSession(
          toFoldSessionOptions(withDefaultCeiling(options, defaultBudget), () => clock),
        ).prepare(history, foldCall);
      } catch (error) {
        if (error instanceof FoldInputError)
          throw new ApiError('invalid-request', error.problem, {
            field: error.messageIndex < 0 ? 'messages' : `messages[${error.messageIndex}]`,
          });
        throw error;
      }
      view = {
        messages: outcome.messages,
        cacheHot: outcome.cacheHot,
        sealedBoundary: outcome.sealedBoundary,
        stats: { ...outcome.stats },
        digest: await historyDigest(history),
        length: history.length,
      };
    }
    let prepared;
    try {
      prepared = prepareAnthropicCachedRequest({
        ...cache,
        messages: view.messages,
        sealedBoundary: view.sealedBoundary,
      });
    } catch (error) {
      if (error instanceof ProviderInputError)
        throw new ApiError('invalid-request', error.problem, { field: error.field });
      throw error;
    }
    return c.json(
      {
        ...prepared,
        cacheHot: view.cacheHot,
        sealedBoundary: view.sealedBoundary,
        stats: view.stats,
        digest: view.digest,
        length: view.length,
      } as never,
      200,
    );
  });
}
