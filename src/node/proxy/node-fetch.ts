import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/** Keep-alive agents: a request per model call would otherwise pay a handshake each time. */
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

function responseHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index], raw[index + 1]);
  return headers;
}

/**
 * fetch for the gateway on Node sockets: no timeout of its own (a stream may idle for minutes while
 * a model thinks), the body handed back exactly as it came on the wire (no decompression), an
 * abort of the request or a cancel of the body closing the upstream connection.
 */
export async function nodeFetch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const secure = url.protocol === 'https:';
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body =
    request.method === 'GET' || request.method === 'HEAD' ? undefined : new Uint8Array(await request.arrayBuffer());
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  return new Promise<Response>((resolve, reject) => {
    const outgoing = (secure ? httpsRequest : httpRequest)(
      url,
      { method: request.method, headers, agent: secure ? agents.https : agents.http, signal: request.signal },
      (incoming) => {
        const status = incoming.statusCode ?? 502;
        const empty = request.method === 'HEAD' || status === 204 || status === 304;
        if (empty) incoming.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), {
            status: status < 200 || status > 599 ? 502 : status,
            statusText: incoming.statusMessage,
            headers: responseHeaders(incoming),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
