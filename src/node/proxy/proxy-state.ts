import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.ts';

/** What `proxy.json` says about a running proxy, so launchers can find it. */
export interface ProxyRecord {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly pid: number;
  readonly startedAt: string;
  readonly shadow: boolean;
  readonly ceiling?: number;
}

export const DEFAULT_STATE_DIR_NAME = '.warpfold';

export function defaultStateDir(): string {
  return join(homedir(), DEFAULT_STATE_DIR_NAME);
}

export const proxyRecordPath = (stateDir: string) => join(stateDir, 'proxy.json');

export async function writeProxyRecord(stateDir: string, record: ProxyRecord): Promise<void> {
  await writeFileAtomic(proxyRecordPath(stateDir), `${JSON.stringify(record, null, 2)}\n`, { sync: false });
}

export async function readProxyRecord(stateDir: string): Promise<ProxyRecord | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(proxyRecordPath(stateDir), 'utf8')) as ProxyRecord;
    return typeof parsed.url === 'string' && Number.isInteger(parsed.pid) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Removes `proxy.json` when it still names this process (a newer proxy may have taken over). */
export async function removeProxyRecord(stateDir: string, pid: number): Promise<void> {
  const record = await readProxyRecord(stateDir);
  if (record?.pid === pid) await fs.rm(proxyRecordPath(stateDir), { force: true });
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
