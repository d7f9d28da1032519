import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { FoldInputError, FoldSession } from '../../src/index.ts';
import { ApiError } from '../api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { historyDigest } from '../history-digest.ts';
import { jsonTextResponse } from '../json-text-response.ts';
import { FoldRequestSchema, PrepareResponseSchema } from '../schemas.ts';
import { toFoldSessionOptions, withDefaultCeiling } from '../session-options.ts';
import { bearer, errorResponses, GUARDED_BODY } from './error-responses.ts';

const foldRoute = createRoute({
  method: 'post',
  path: '/v1/fold',
  summary: 'Fold a whole history once, keeping no state',
  security: bearer,
  request: { body: { required: true, content: { 'application/json': { schema: FoldRequestSchema } } } },
  responses: {
    200: { description: 'The folded view.', content: { 'application/json': { schema: PrepareResponseSchema } } },
    ...errorResponses(...GUARDED_BODY),
  },
});

export function registerFoldRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(foldRoute, async (c) => {
    const body = c.req.valid('json');
    const now = body.now ?? Date.now();
    const session = new FoldSession(
      toFoldSessionOptions(withDefaultCeiling(body.options, c.var.config.defaultBudget), () => now),
    );
    let outcome;
    try {
      outcome = session.prepare(body.messages, {
        ...(body.measuredInputTokens !== undefined ? { measuredInputTokens: body.measuredInputTokens } : {}),
        ...(body.hardEpoch ? { hardEpoch: true } : {}),
      });
    } catch (error) {
      if (error instanceof FoldInputError)
        throw new ApiError('invalid-request', error.problem, {
          field: error.messageIndex < 0 ? 'messages' : `messages[${error.messageIndex}]`,
        });
      throw error;
    }
    const json = JSON.stringify({
      messages: outcome.messages,
      cacheHot: outcome.cacheHot,
      sealedBoundary: outcome.sealedBoundary,
      stats: outcome.stats,
      digest: await historyDigest(body.messages),
      length: body.messages.length,
    });
    return jsonTextResponse(json);
  });
}
