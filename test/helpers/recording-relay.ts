import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One call through the relay: the client's request byte for byte, and the answer it got. */
export interface RelayedCall {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
  status?: number;
  responseHeaders?: IncomingHttpHeaders;
  responseBody: Buffer;
  /** Set when the target could not be reached or broke off: the client saw its connection reset. */
  error?: string;
}

export interface RecordingRelay {
  readonly url: string;
  readonly calls: RelayedCall[];
  close(): Promise<void>;
}

/**
 * A transparent loopback relay between a client and the server under test (`warpfold proxy`): it
 * records what the client really sent and what it really got back, and streams both ways without
 * buffering. When the target is down it resets the client's connection, as a dead proxy would.
 */
export async function startRecordingRelay(target: string): Promise<RecordingRelay> {
  const targetUrl = new URL(target);
  const calls: RelayedCall[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const call: RelayedCall = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        rawBody: Buffer.concat(chunks),
        responseBody: Buffer.alloc(0),
      };
      calls.push(call);
      const responseChunks: Buffer[] = [];
      const upstream = request(
        {
          host: targetUrl.hostname,
          port: targetUrl.port,
          method: call.method,
          path: call.url,
          headers: { ...incoming.headers, host: targetUrl.host },
        },
        (answer) => {
          call.status = answer.statusCode;
          call.responseHeaders = answer.headers;
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.on('data', (chunk: Buffer) => {
            responseChunks.push(chunk);
            outgoing.write(chunk);
          });
          answer.on('end', () => {
            call.responseBody = Buffer.concat(responseChunks);
            outgoing.end();
          });
          answer.on('error', (error) => {
            call.error = String(error);
            outgoing.destroy();
          });
        },
      );
      upstream.on('error', (error) => {
        call.error = String(error);
        call.responseBody = Buffer.concat(responseChunks);
        outgoing.destroy();
      });
      // a client that gives up aborts the call behind it too
      outgoing.on('close', () => {
        if (!outgoing.writableFinished) upstream.destroy();
      });
      upstream.end(call.rawBody);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
