/** A JSON answer of the gateway's own endpoints; the verdict says no provider was called. */
export function gatewayJson(value: unknown, status = 200): Response {
  return new Response(`${JSON.stringify(value, null, 2)}\n`, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-warpfold-verdict': 'passthrough; reason=gateway' },
  });
}
