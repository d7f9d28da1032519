import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { tokenConfigurationProblem } from '../bearer-auth.ts';
import { logEvent } from '../log-event.ts';
import { HealthSchema } from '../schemas.ts';

/** The API's version: bumped with any change to a request or response shape. */
export const API_VERSION = '1.1.0';

const healthRoute = createRoute({
  method: 'get',
  path: '/v1/health',
  summary: 'Liveness and configuration; needs no token (HEAD answers alike, without a body)',
  responses: {
    200: { description: 'Up and configured.', content: { 'application/json': { schema: HealthSchema } } },
    503: {
      description: 'Up, but misconfigured (the reason is in the log, never here).',
      content: { 'application/json': { schema: HealthSchema } },
    },
  },
});

export function registerHealthRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(healthRoute, async (c) => {
    const problem = await tokenConfigurationProblem(c.env);
    if (problem !== null) {
      logEvent('error', 'misconfigured', { requestId: c.var.requestId, reason: problem });
      return c.json({ status: 'misconfigured' as const, version: API_VERSION }, 503);
    }
    return c.json({ status: 'ok' as const, version: API_VERSION }, 200);
  });
}
