import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { deriveEpisodesFromMessages } from '../../src/episodes/index.ts';
import { FoldInputError } from '../../src/index.ts';
import { ApiError, unwrapRpc } from '../api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { tenantObjectName } from '../durable-object-names.ts';
import { decodeEpisodeCursor, DEFAULT_EPISODE_PAGE } from '../episode-page.ts';
import { EpisodeSchema, EpisodesQuerySchema, EpisodesRequestSchema } from '../schemas.ts';
import { bearer, errorResponses, GUARDED, GUARDED_BODY } from './error-responses.ts';

const recordRoute = createRoute({
  method: 'post',
  path: '/v1/episodes',
  summary: "Derive a history's episodes and record them for this tenant (supersession applied)",
  security: bearer,
  request: { body: { required: true, content: { 'application/json': { schema: EpisodesRequestSchema } } } },
  responses: {
    200: {
      description: 'Recorded.',
      content: {
        'application/json': {
          schema: z.object({ recorded: z.number().int(), superseded: z.number().int(), ids: z.array(z.string()) }),
        },
      },
    },
    ...errorResponses(...GUARDED_BODY),
  },
});

const findRoute = createRoute({
  method: 'get',
  path: '/v1/episodes',
  summary: "This tenant's episodes touching the given paths (newest first), or all of them, a page at a time",
  security: bearer,
  request: { query: EpisodesQuerySchema },
  responses: {
    200: {
      description: 'Episodes.',
      content: {
        'application/json': {
          schema: z.object({
            episodes: z.array(EpisodeSchema),
            nextCursor: z
              .string()
              .nullable()
              .openapi({ description: 'Pass as `cursor` for the next page; null on the last.' }),
          }),
        },
      },
    },
    ...errorResponses(400, ...GUARDED),
  },
});

export function registerEpisodeRoutes(app: OpenAPIHono<AppEnv>): void {
  const stub = (c: { env: AppEnv['Bindings']; var: AppEnv['Variables'] }) =>
    c.env.TENANTS.getByName(tenantObjectName(c.var.caller.tenant));

  app.openapi(recordRoute, async (c) => {
    const body = c.req.valid('json');
    let episodes;
    try {
      episodes = deriveEpisodesFromMessages(body.messages, {
        sessionId: body.sessionId,
        ...(body.timestamps ? { timestamps: body.timestamps } : {}),
      });
    } catch (error) {
      if (error instanceof FoldInputError)
        throw new ApiError('invalid-request', error.problem, {
          field: error.messageIndex < 0 ? 'messages' : `messages[${error.messageIndex}]`,
        });
      throw error;
    }
    const result = unwrapRpc(await stub(c).recordEpisodes(episodes));
    return c.json({ ...result, ids: episodes.map((episode) => episode.id) }, 200);
  });

  app.openapi(findRoute, async (c) => {
    const query = c.req.valid('query');
    const paths = query.path === undefined ? [] : Array.isArray(query.path) ? query.path : [query.path];
    const cursor = query.cursor !== undefined ? decodeEpisodeCursor(query.cursor) : undefined;
    const page = unwrapRpc(
      await stub(c).findEpisodes({
        paths,
        ...(query.sessionId !== undefined ? { sessionId: query.sessionId } : {}),
        limit: query.limit ?? DEFAULT_EPISODE_PAGE,
        ...(cursor ? { cursor } : {}),
      }),
    );
    return c.json(
      { episodes: page.episodes as unknown as Array<z.infer<typeof EpisodeSchema>>, nextCursor: page.nextCursor },
      200,
    );
  });
}
