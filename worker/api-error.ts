/** Machine-readable error codes of the edge API, one per HTTP status the worker answers with. */
export type ApiErrorCode =
  | 'invalid-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'conflict'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'rate-limited'
  | 'misconfigured'
  | 'internal';

export const STATUS_OF_CODE: Readonly<Record<ApiErrorCode, number>> = {
  'invalid-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'method-not-allowed': 405,
  conflict: 409,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  'rate-limited': 429,
  misconfigured: 503,
  internal: 500,
};

/** What a failed call answers: plain JSON, never a stack. `field` names the bad input when there is one. */
export interface ApiErrorBody {
  readonly code: ApiErrorCode;
  readonly message: string;
  readonly field?: string;
  readonly [detail: string]: unknown;
}

/** An error the API answers with as is; anything else becomes a bare 500. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = STATUS_OF_CODE[code];
  }

  body(): ApiErrorBody {
    return { ...this.details, code: this.code, message: this.message };
  }
}

/** Durable Object calls hand errors back as values: an Error's class does not survive RPC. */
export type RpcResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ApiErrorBody };

const rpcFailure = (error: ApiError): { ok: false; error: ApiErrorBody } => ({ ok: false, error: error.body() });

/** Runs a Durable Object method: an ApiError becomes a failure value, anything else still throws. */
export async function settleRpc<T>(work: () => Promise<T>): Promise<RpcResult<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof ApiError) return rpcFailure(error);
    throw error;
  }
}

export function unwrapRpc<T>(result: RpcResult<T>): T {
  if (result.ok) return result.value;
  const { code, message, ...details } = result.error;
  throw new ApiError(code, message, details);
}
