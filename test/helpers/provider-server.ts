import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

/** A loopback HTTP server standing in for a provider's API: records each request, answers with `respond`. */
export interface ProviderServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startProviderServer(
  respond: (request: RecordedRequest, index: number) => unknown,
): Promise<ProviderServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: text === '' ? null : JSON.parse(text),
      };
      requests.push(recorded);
      let answer: unknown;
      try {
        answer = respond(recorded, requests.length - 1);
      } catch (error) {
        outgoing
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: String(error) } }));
        return;
      }
      outgoing.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
