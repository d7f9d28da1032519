import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createGateway, type Gateway } from '../../gateway/create-gateway.ts';
import type { UpstreamName } from '../../gateway/route-request.ts';
import { FoldOptionsError } from '../../errors.ts';
import { createFileSystemStore } from '../file-system-driver.ts';
import { fileLedger } from './file-ledger.ts';
import { nodeFetch } from './node-fetch.ts';
import { defaultStateDir, removeProxyRecord, writeProxyRecord } from './proxy-state.ts';
import { serveGateway } from './serve-gateway.ts';

export interface ProxyOptions {
  /** 0 (default) takes any free port. */
  readonly port?: number;
  /** Default 127.0.0.1; any other host needs `token`. */
  readonly host?: string;
  readonly token?: string;
  readonly ceiling?: number;
  readonly model?: string;
  readonly upstreams?: Partial<Record<UpstreamName, string>>;
  /** Default ~/.warpfold: sessions/, ledger.jsonl, proxy.json. */
  readonly stateDir?: string;
  readonly shadow?: boolean;
  readonly logBodies?: boolean;
  readonly maxWarmSessions?: number;
  /** The counter for ceilings and folds: o200k from gpt-tokenizer where installed (the CLI loads it). */
  readonly countTokens?: (text: string) => number;
  readonly onError?: (error: unknown) => void;
}

export interface RunningProxy {
  readonly url: string;
  readonly port: number;
  readonly stateDir: string;
  readonly gateway: Gateway;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** `warpfold proxy`: the gateway core on a Node server, sessions and ledger in the state dir. */
export async function startProxy(options: ProxyOptions = {}): Promise<RunningProxy> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && (options.token === undefined || options.token === ''))
    throw new FoldOptionsError(
      'token',
      `serving on ${host} (not loopback) needs a token, checked against x-warpfold-token`,
    );
  const stateDir = options.stateDir ?? defaultStateDir();
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const gateway = createGateway({
    storage: createFileSystemStore(join(stateDir, 'sessions')),
    fetch: nodeFetch,
    ledger: fileLedger(join(stateDir, 'ledger.jsonl')),
    upstreams: options.upstreams,
    ceiling: options.ceiling,
    model: options.model,
    shadow: options.shadow,
    logBodies: options.logBodies,
    maxWarmSessions: options.maxWarmSessions,
    token: options.token,
    countTokens: options.countTokens,
    onError: options.onError,
  });
  const server = serveGateway(gateway, options.onError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  await writeProxyRecord(stateDir, {
    url,
    host,
    port,
    pid: process.pid,
    startedAt: new Date().toISOString(),
    shadow: options.shadow === true,
    ...(options.ceiling !== undefined ? { ceiling: options.ceiling } : {}),
  });
  return {
    url,
    port,
    stateDir,
    gateway,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await gateway.idle();
      await removeProxyRecord(stateDir, process.pid);
    },
  };
}
