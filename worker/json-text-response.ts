/**
 * A response from JSON the Durable Object already serialized: its answer is written once, not
 * cloned over RPC and stringified again. Typed `never` so a route with a declared response schema
 * accepts it; the schema still describes it in the OpenAPI document.
 */
export function jsonTextResponse(text: string): never {
  return new Response(text, { status: 200, headers: { 'Content-Type': 'application/json' } }) as never;
}
