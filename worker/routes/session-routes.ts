import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError, unwrapRpc } from '../api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { jsonTextResponse } from '../json-text-response.ts';
import { sessionObjectName } from '../durable-object-names.ts';
import { PrepareRequestSchema, PrepareResponseSchema, SessionIdSchema, SessionSummarySchema } from '../schemas.ts';
import { sessionCallSettings } from '../session-call-settings.ts';
import { bearer, errorResponses, GUARDED, GUARDED_BODY } from './error-responses.ts';

const params = z.object({ id: SessionIdSchema });

const prepareRoute = createRoute({
  method: 'post',
  path: '/v1/sessions/{id}/prepare',
  summary: 'Append to (or send) a session history and get its folded view',
  security: bearer,
  request: { params, body: { required: true, content: { 'application/json': { schema: PrepareRequestSchema } } } },
  responses: {
    200: {
      description: 'The view to send to the model.',
      content: { 'application/json': { schema: PrepareResponseSchema } },
    },
    ...errorResponses(...GUARDED_BODY, 409),
  },
});

const describeRoute = createRoute({
  method: 'get',
  path: '/v1/sessions/{id}',
  summary: 'Length, digest and last stats of a session',
  security: bearer,
  request: { params },
  responses: {
    200: { description: 'The session.', content: { 'application/json': { schema: SessionSummarySchema } } },
    ...errorResponses(400, ...GUARDED, 404),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/v1/sessions/{id}',
  summary: 'Delete a session and its history',
  security: bearer,
  request: { params },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses(400, ...GUARDED, 404) },
});

/** Bench-only: drop the object's memory so the next call restores from storage. Enabled by WARPFOLD_BENCH_HOOKS=1. */
const forgetRoute = createRoute({
  method: 'post',
  path: '/v1/sessions/{id}/forget',
  hide: true,
  request: { params },
  responses: { 204: { description: 'Forgotten.' }, ...errorResponses(404) },
});

export function registerSessionRoutes(app: OpenAPIHono<AppEnv>): void {
  const stub = (c: { env: AppEnv['Bindings']; var: AppEnv['Variables'] }, id: string) =>
    c.env.SESSIONS.getByName(sessionObjectName(c.var.caller.tenant, id));

  app.openapi(prepareRoute, async (c) => {
    const { id } = c.req.valid('param');
    const body = c.req.valid('json');
    const json = unwrapRpc(
      await stub(c, id).prepare({
        ...body,
        ...sessionCallSettings(c.var.config, body.options),
        tenant: c.var.caller.tenant,
        sessionId: id,
      }),
    );
    return jsonTextResponse(json);
  });

  app.openapi(describeRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(unwrapRpc(await stub(c, id).describe(c.var.caller.tenant, id)), 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid('param');
    unwrapRpc(await stub(c, id).remove(c.var.caller.tenant, id));
    return c.body(null, 204);
  });

  app.openapi(forgetRoute, async (c) => {
    if (c.env.WARPFOLD_BENCH_HOOKS !== '1') throw new ApiError('not-found', 'no such route');
    await stub(c, c.req.valid('param').id).forget();
    return c.body(null, 204);
  });
}
