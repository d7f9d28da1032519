import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** Where the served session lives on the local server; the page fetches it from there. */
export const SESSION_PATH_PREFIX = '/local-session/';

/**
 * The built inspector shipped with the package: `dist-inspector/` beside `dist/` (this module is
 * bundled into `dist/cli.js`). `WARPFOLD_INSPECTOR_DIR` points elsewhere (a fresh `npm run demo:build`).
 */
export function inspectorFolder(): string {
  const override = process.env.WARPFOLD_INSPECTOR_DIR;
  if (override) return resolve(override);
  return fileURLToPath(new URL(/* @vite-ignore */ '../dist-inspector/', import.meta.url));
}

export interface InspectorServer {
  /** The inspector's address with the session preloaded. */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** A session read afresh on every request (a running proxy's history), instead of a file. */
export interface LiveSession {
  /** The name the page shows, and the last segment of its path. */
  readonly name: string;
  /** The session's text, or the status and message to answer with when it cannot be had. */
  read(): Promise<{ readonly status: number; readonly text: string }>;
}

/**
 * Serves the built inspector and one session (a file, or a live one) on 127.0.0.1. Only files
 * inside the inspector folder and that session are served; nothing else on the disk is reachable.
 */
export async function startInspectorServer(
  session: string | LiveSession,
  folder: string,
  port = 0,
  settings: Readonly<Record<string, string>> = {},
): Promise<InspectorServer> {
  const root = resolve(folder);
  const sessionFile = typeof session === 'string' ? session : undefined;
  const sessionName = typeof session === 'string' ? basename(session) : session.name;
  const sessionUrlPath = `${SESSION_PATH_PREFIX}${encodeURIComponent(sessionName)}`;
  const server = createServer((request, response) => {
    const send = (status: number, text: string) => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(text);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, 'method not allowed');
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    if (typeof session !== 'string' && path === decodeURIComponent(sessionUrlPath)) {
      session.read().then(
        ({ status, text }) => {
          response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
          response.end(request.method === 'HEAD' ? undefined : text);
        },
        (error: unknown) => send(502, String((error as Error)?.message ?? error)),
      );
      return;
    }
    let file: string;
    if (sessionFile !== undefined && path === decodeURIComponent(sessionUrlPath)) file = sessionFile;
    else {
      file = normalize(join(root, path === '/' ? 'index.html' : path));
      if (file !== root && !file.startsWith(root + sep)) return send(403, 'forbidden');
    }
    if (!existsSync(file) || !statSync(file).isFile()) return send(404, 'not found');
    const type =
      file === sessionFile
        ? 'text/plain; charset=utf-8'
        : (CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    if (request.method === 'HEAD') return response.end();
    // read-only; the transcript is never written
    createReadStream(file, { flags: 'r' })
      .on('error', () => response.destroy())
      .pipe(response);
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolvePromise());
  });
  const address = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    url: `${origin}/?${new URLSearchParams({ sample: sessionUrlPath.slice(1), ...settings }).toString()}`,
    server,
    close: () =>
      new Promise((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      }),
  };
}
