import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import type { Gateway } from '../../gateway/create-gateway.ts';

function requestOf(incoming: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index], raw[index + 1]);
  const method = incoming.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(`http://${incoming.headers.host ?? '127.0.0.1'}${incoming.url ?? '/'}`, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : null,
    signal,
    duplex: 'half',
  } as RequestInit);
}

/** Writes the web response to the socket chunk by chunk, as the gateway's stream yields them. */
async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' || response.body === null) headers.push(name, value);
  });
  outgoing.writeHead(response.status, response.statusText, headers);
  outgoing.flushHeaders();
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value))
        await new Promise<void>((resolve) => outgoing.once('drain', resolve).once('close', resolve));
      if (outgoing.destroyed) return;
    }
    outgoing.end();
  } catch {
    outgoing.destroy();
  }
}

/** A WebSocket upgrade (Codex tries one first on /v1/responses): 426 at once, so it falls back to HTTP. */
function refuseUpgrade(_incoming: IncomingMessage, socket: Duplex): void {
  const body = '{"type":"error","error":{"type":"upgrade_required","message":"warpfold: use HTTP"}}';
  socket.end(
    `HTTP/1.1 426 Upgrade Required\r\ncontent-type: application/json\r\nx-warpfold-verdict: passthrough; reason=websocket\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The gateway on a Node HTTP server: sockets only. No timeout cuts a request or a stream. */
export function serveGateway(gateway: Gateway, onError: (error: unknown) => void = () => undefined): Server {
  const server = createServer((incoming, outgoing) => {
    const controller = new AbortController();
    // the client went away before its answer ended: abort the upstream call
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) controller.abort();
    });
    gateway
      .handle(requestOf(incoming, controller.signal))
      .then((response) => send(response, outgoing))
      .catch((error: unknown) => {
        onError(error);
        if (!outgoing.headersSent)
          outgoing
            .writeHead(502, {
              'content-type': 'application/json',
              'x-warpfold-verdict': 'passthrough; reason=gateway-error',
            })
            .end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'warpfold: gateway error' } }));
        else outgoing.destroy();
      });
  });
  server.on('upgrade', refuseUpgrade);
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.timeout = 0;
  server.keepAliveTimeout = 65_000;
  return server;
}
