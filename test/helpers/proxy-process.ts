import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
/** The built command line; `vite build` makes it. */
export const BUILT_CLI = join(root, 'dist', 'cli.js');

export interface ProxyOptions {
  /** The scripted provider's root URL: every upstream flag points at it. */
  readonly upstream: string;
  readonly stateDirectory: string;
  /** 0 (the default) lets the proxy pick a free port. */
  readonly port?: number;
  readonly ceiling?: number;
  readonly shadow?: boolean;
  readonly extraArgs?: readonly string[];
}

export interface ProxyProcess {
  /** The URL the proxy printed. */
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  output(): string;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no chance to flush or clean up. */
  kill(): Promise<void>;
}

/** `node dist/cli.js proxy …` on 127.0.0.1; resolves once it prints the URL it serves. */
export function startProxy(options: ProxyOptions): Promise<ProxyProcess> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`vite build\` first`);
  const args = [
    BUILT_CLI,
    'proxy',
    '--port',
    String(options.port ?? 0),
    '--ceiling',
    String(options.ceiling ?? 40_000),
    '--anthropic-upstream',
    options.upstream,
    '--openai-upstream',
    options.upstream,
    '--gemini-upstream',
    options.upstream,
    '--state-dir',
    options.stateDirectory,
    ...(options.shadow ? ['--shadow'] : []),
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
  let output = '';
  const exited = new Promise<void>((done) => child.on('close', () => done()));
  return new Promise<ProxyProcess>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`warpfold proxy printed no URL within 20 s:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      const port = Number(match[1]);
      resolvePromise({
        url: `http://127.0.0.1:${port}`,
        port,
        child,
        output: () => output,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
        kill: async () => {
          child.kill('SIGKILL');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`warpfold proxy exited (code ${code}) before printing its URL:\n${output}`));
    });
  });
}

/** The proxy's ledger, one parsed line per call. */
export function readLedger(stateDirectory: string): Array<Record<string, any>> {
  const path = join(stateDirectory, 'ledger.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}
