import { z } from '@hono/zod-openapi';
import { MINIMUM_PRESSURE_CEILING_TOKENS } from '../src/budget/index.ts';
import { DEFAULT_EPISODE_PAGE, MAX_EPISODE_PAGE } from './episode-page.ts';
import type { SessionOptions } from './session-options.ts';

/**
 * Every request and response shape of the API, once: the routes validate with these and the
 * OpenAPI 3.1 document at /v1/openapi.json is generated from the same objects.
 */

export const ProviderMessageSchema = z.looseObject({ role: z.string().min(1) }).openapi('ProviderMessage', {
  description: 'A message as the provider API takes it: OpenAI, Anthropic or Gemini shape. Kept byte for byte.',
});

const Messages = z.array(ProviderMessageSchema);

export const SessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'session ids are 1–128 letters, digits, ".", "_", ":" or "-"')
  .openapi({ param: { name: 'id', in: 'path' }, example: 'agent-run-42' });

const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'a digest is "sha256:" and 64 lowercase hex digits');

export const SessionOptionsSchema = z
  .strictObject({
    pressureCeiling: z.union([z.number().int().min(MINIMUM_PRESSURE_CEILING_TOKENS), z.literal(false)]).optional(),
    budget: z
      .strictObject({
        engine: z.string().min(1),
        model: z.string().min(1),
        contextWindowTokens: z.number().int().positive().optional(),
        pressureCeilingTokens: z.number().int().positive().optional(),
        targetBandTokens: z.number().int().positive().optional(),
      })
      .optional(),
    freezeTtlMs: z.number().int().min(0).optional(),
    freeze: z.boolean().optional(),
    recall: z.boolean().optional(),
  })
  .openapi('SessionOptions', {
    description:
      'Ceiling, model budget, freeze TTL and recall switch. Stored with the session; a later call may replace them. Without pressureCeiling or budget, budget is the worker default (DEFAULT_BUDGET_ENGINE / DEFAULT_BUDGET_MODEL, gpt-4o unless configured: a ceiling of about 99K tokens), written into the options the session keeps; /v1/anthropic/prepare uses the Claude model of its params when known.',
  }) satisfies z.ZodType<SessionOptions>;

const foldCallFields = {
  measuredInputTokens: z
    .number()
    .min(0)
    .optional()
    .openapi({ description: 'Input tokens the provider reported for the previous prompt.' }),
  hardEpoch: z.boolean().optional(),
  options: SessionOptionsSchema.optional(),
  now: z
    .number()
    .int()
    .min(0)
    .optional()
    .openapi({ description: 'Your clock for this call, ms since the epoch; the server clock when absent.' }),
};

export const PrepareRequestSchema = z
  .strictObject({
    messages: Messages.optional().openapi({ description: 'The whole history; it must extend what the server holds.' }),
    append: Messages.optional().openapi({ description: 'Only the messages after what the server holds.' }),
    prefixDigest: Digest.optional().openapi({
      description: 'The digest of the history you believe the server holds; 409 when it holds another.',
    }),
    ...foldCallFields,
  })
  .refine((body) => (body.messages === undefined) !== (body.append === undefined), {
    message: 'send exactly one of messages or append',
    path: ['messages'],
  })
  .openapi('PrepareRequest');

export const FoldRequestSchema = z.strictObject({ messages: Messages, ...foldCallFields }).openapi('FoldRequest');

const Stats = z
  .looseObject({ cacheHot: z.boolean(), epochs: z.number(), viewTokens: z.number(), rawTokens: z.number() })
  .openapi('FoldStats');

export const PrepareResponseSchema = z
  .object({
    messages: Messages,
    cacheHot: z.boolean(),
    sealedBoundary: z.number().int().nullable(),
    stats: Stats,
    digest: Digest,
    length: z.number().int(),
  })
  .openapi('PrepareResponse');

export const SessionSummarySchema = z
  .object({
    sessionId: z.string(),
    length: z.number().int(),
    digest: Digest,
    version: z.number().int(),
    options: SessionOptionsSchema,
    stats: Stats.nullable(),
    updatedAt: z.number(),
  })
  .openapi('SessionSummary');

export const ErrorSchema = z
  .object({
    error: z.looseObject({
      code: z.string(),
      message: z.string(),
      field: z.string().optional().openapi({ description: 'The request field at fault, e.g. `messages[3].role`.' }),
    }),
    requestId: z.string(),
  })
  .openapi('Error');

export const HealthSchema = z
  .object({ status: z.enum(['ok', 'misconfigured']), version: z.string() })
  .openapi('Health');

export const EpisodesRequestSchema = z
  .strictObject({
    sessionId: z.string().min(1).max(128),
    messages: Messages,
    timestamps: z.array(z.number().nullable()).optional(),
  })
  .openapi('RecordEpisodesRequest', { description: 'A history to derive episodes from and record for this tenant.' });

export const EpisodeSchema = z
  .looseObject({ id: z.string(), sessionId: z.string(), outcome: z.string() })
  .openapi('Episode');

export const EpisodesQuerySchema = z.object({
  path: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .openapi({ description: 'File paths; repeat for several. Without it, every episode.' }),
  sessionId: z.string().optional(),
  limit: z.coerce
    .number()
    .int()
    .positive()
    .max(MAX_EPISODE_PAGE)
    .optional()
    .openapi({ description: `Episodes per page (default ${DEFAULT_EPISODE_PAGE}, at most ${MAX_EPISODE_PAGE}).` }),
  cursor: z.string().max(1024).optional().openapi({ description: 'The `nextCursor` of the previous page.' }),
});

export const RailIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'rail ids are 1–128 letters, digits, ".", "_", ":" or "-"')
  .openapi({ param: { name: 'id', in: 'path' } });

export const RailSchema = z
  .looseObject({ id: z.string(), title: z.string(), revision: z.number().int() })
  .openapi('TaskRail', { description: 'A task rail as `serializeTaskRail` writes it.' });

const CacheTtl = z.enum(['5m', '1h']);
const SystemBlock = z.strictObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: z.strictObject({ type: z.literal('ephemeral'), ttl: CacheTtl.optional() }).optional(),
});

export const AnthropicPrepareRequestSchema = z
  .strictObject({
    sessionId: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'session ids are 1–128 letters, digits, ".", "_", ":" or "-"')
      .optional()
      .openapi({
        description:
          'Fold through this session (as /v1/sessions/{id}/prepare); without it, a stateless fold of `messages`.',
      }),
    messages: Messages.optional(),
    append: Messages.optional(),
    prefixDigest: Digest.optional(),
    ...foldCallFields,
    system: z.union([z.string(), z.array(SystemBlock)]).optional(),
    tools: z.array(z.record(z.string(), z.unknown())).optional(),
    ttl: CacheTtl.optional(),
    prefixTtl: CacheTtl.optional(),
    tailTtl: CacheTtl.optional(),
    volatileSystemMarker: z.string().nullable().optional(),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'Other Messages API fields (model, max_tokens, …), copied as given.' }),
  })
  .refine((body) => (body.messages === undefined) !== (body.append === undefined), {
    message: 'send exactly one of messages or append',
    path: ['messages'],
  })
  .refine((body) => body.sessionId !== undefined || body.append === undefined, {
    message: 'append needs a sessionId',
    path: ['append'],
  })
  .openapi('AnthropicPrepareRequest');

export const AnthropicPrepareResponseSchema = z
  .object({
    request: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'The Messages API body, cache breakpoints placed.' }),
    requestOptions: z.object({ headers: z.record(z.string(), z.string()).optional() }),
    anthropicBeta: z.array(z.string()),
    breakpoints: z.array(z.record(z.string(), z.unknown())),
    cacheHot: z.boolean(),
    sealedBoundary: z.number().int().nullable(),
    stats: Stats,
    digest: Digest,
    length: z.number().int(),
  })
  .openapi('AnthropicPrepareResponse');
