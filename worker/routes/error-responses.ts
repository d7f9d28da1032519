import { ErrorSchema } from '../schemas.ts';

const DESCRIPTIONS: Record<number, string> = {
  400: 'A field is invalid; `error.field` names it.',
  401: 'No bearer token, or not a valid one.',
  403: 'The token is read-only, or the Origin is not allowed.',
  404: 'No such resource for this tenant.',
  409: 'The server holds another history (its digest and length are in the body), or a newer record.',
  413: 'The body is larger than MAX_BODY_BYTES, or the session would pass MAX_SESSION_MESSAGES or MAX_SESSION_BYTES (`limit` names which).',
  415: 'The body is not application/json.',
  429: 'Too many requests for this tenant, or from this address without a valid token; see Retry-After.',
  503: 'The worker is misconfigured; the reason is in its log.',
};

/** OpenAPI response entries for the error statuses a route can answer with. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: DESCRIPTIONS[status], content: { 'application/json': { schema: ErrorSchema } } },
    ]),
  );
}

export const bearer = [{ bearer: [] }];
export const GUARDED = [401, 403, 429, 503];
export const GUARDED_BODY = [400, 401, 403, 413, 415, 429, 503];
