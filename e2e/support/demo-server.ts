/**
 * Builds the inspector once per spec file into a temporary folder and serves it with `vite
 * preview` on 127.0.0.1, on a port the OS picks. The build is what `npm start` serves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { build, preview, type PreviewServer } from 'vite';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(REPO_ROOT, 'vite.demo.config.ts');

export interface DemoServer {
  readonly url: string;
  readonly outDir: string;
  close(): Promise<void>;
}

export async function startDemoServer(): Promise<DemoServer> {
  const outDir = mkdtempSync(join(tmpdir(), 'warpfold-demo-'));
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server: PreviewServer = await preview({
    configFile: CONFIG,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
  });
  const address = server.httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/`,
    outDir,
    async close() {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
