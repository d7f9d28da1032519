import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { HealthSchema } from '../schemas.ts';

/** The API's version: bumped with any change to a request or response shape. */
export const API_VERSION = '1.0.0';

const healthRoute = createRoute({
  method: 'get',
  path: '/v1/health',
  summary: 'Liveness; needs no token',
  responses: { 200: { description: 'Up.', content: { 'application/json': { schema: HealthSchema } } } },
});

export function registerHealthRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(healthRoute, (c) => c.json({ status: 'ok' as const, version: API_VERSION }, 200));
}
