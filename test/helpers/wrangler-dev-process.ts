// Starts `wrangler dev` for the edge endpoint on 127.0.0.1 (free ports, no network, local state in
// a directory of the caller's choosing) and stops it for sure: wrangler runs in its own process
// group, and stopping signals the whole group, so no workerd child outlives it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WRANGLER = resolve(ROOT, 'node_modules/wrangler/bin/wrangler.js');
/** wrangler dev bundles and starts workerd; on two busy cores this can take a while. */
const READY_TIMEOUT_MS = 120_000;

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface WranglerDevOptions {
  /** `--persist-to`: Durable Object storage survives a restart pointed at the same directory. */
  readonly persistTo: string;
  /** `--env-file`: where the token secrets come from. */
  readonly envFile: string;
  readonly vars?: Readonly<Record<string, string>>;
  readonly port?: number;
}

export interface WranglerDev {
  readonly url: string;
  readonly inspectorPort: number;
  readonly process: ChildProcess;
  /** Everything wrangler printed so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
// a runner that exits early, or is stopped by a signal, must not leave workerd behind
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    for (const child of running) killGroup(child, 'SIGKILL');
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}

export async function startWranglerDev(options: WranglerDevOptions): Promise<WranglerDev> {
  const port = options.port ?? (await freePort());
  const inspectorPort = await freePort();
  const vars = Object.entries(options.vars ?? {}).flatMap(([name, value]) => ['--var', `${name}:${value}`]);
  const args = [
    WRANGLER,
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-ip',
    '127.0.0.1',
    '--inspector-port',
    String(inspectorPort),
    '--persist-to',
    options.persistTo,
    '--env-file',
    options.envFile,
    '--show-interactive-dev-session=false',
    '--log-level',
    'warn',
    ...vars,
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      NO_COLOR: '1',
      CI: '1',
    },
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    running.delete(child);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
    try {
      const response = await fetch(`${url}/v1/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not answer within ${READY_TIMEOUT_MS} ms:\n${output}`);
    }
    await new Promise((wait) => setTimeout(wait, 250));
  }
  return { url, inspectorPort, process: child, output: () => output, stop };
}
