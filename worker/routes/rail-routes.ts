import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { unwrapRpc } from '../api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { tenantObjectName } from '../durable-object-names.ts';
import { RailIdSchema, RailSchema } from '../schemas.ts';
import { bearer, errorResponses, GUARDED, GUARDED_BODY } from './error-responses.ts';

const params = z.object({ id: RailIdSchema });
const railResponse = { description: 'The rail, serialized.', content: { 'application/json': { schema: RailSchema } } };

const putRoute = createRoute({
  method: 'put',
  path: '/v1/rails/{id}',
  summary: 'Store a task rail (as serializeTaskRail writes it); an older revision is refused with 409',
  security: bearer,
  request: { params, body: { required: true, content: { 'application/json': { schema: RailSchema } } } },
  responses: { 200: railResponse, ...errorResponses(...GUARDED_BODY, 409) },
});

const getRoute = createRoute({
  method: 'get',
  path: '/v1/rails/{id}',
  summary: 'Read a task rail',
  security: bearer,
  request: { params },
  responses: { 200: railResponse, ...errorResponses(400, ...GUARDED, 404) },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/v1/rails/{id}',
  summary: 'Delete a task rail',
  security: bearer,
  request: { params },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses(400, ...GUARDED, 404) },
});

export function registerRailRoutes(app: OpenAPIHono<AppEnv>): void {
  const stub = (c: { env: AppEnv['Bindings']; var: AppEnv['Variables'] }) =>
    c.env.TENANTS.getByName(tenantObjectName(c.var.caller.tenant));

  app.openapi(putRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(unwrapRpc(await stub(c).putRail(id, c.req.valid('json'))), 200);
  });

  app.openapi(getRoute, async (c) => c.json(unwrapRpc(await stub(c).getRail(c.req.valid('param').id)), 200));

  app.openapi(deleteRoute, async (c) => {
    unwrapRpc(await stub(c).deleteRail(c.req.valid('param').id));
    return c.body(null, 204);
  });
}
