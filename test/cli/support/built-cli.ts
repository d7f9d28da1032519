/**
 * The `warpfold` bin as a user runs it: the library build and dist/cli.js (self-contained, the
 * o200k encoder bundled) made once into a folder inside node_modules/.cache, run as a child process
 * with its own HOME.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { REPO_ROOT } from '../../helpers/fixtures.ts';

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Builds the library into `<root>/dist` (with `package.json` beside it, as in the package) and returns the bin's path. */
export async function buildCli(root: string): Promise<string> {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  await build({
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: join(root, 'dist'), emptyOutDir: true },
  });
  // dist/cli.js: one file with the o200k encoder inside, as the package ships it
  await build({
    configFile: join(REPO_ROOT, 'vite.cli.config.ts'),
    logLevel: 'warn',
    build: { outDir: join(root, 'dist'), emptyOutDir: false },
  });
  cpSync(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
  return join(root, 'dist/cli.js');
}

export function runBin(bin: string, args: readonly string[], options: { home: string; cwd?: string }): CliRun {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? options.home,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: options.home, LANG: 'C.UTF-8' },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
