#!/usr/bin/env node
// The `warpfold` executable (package.json "bin"): built to dist/cli.js.
import { readFileSync } from 'node:fs';
import { runCli } from './run-cli.ts';

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL(/* @vite-ignore */ '../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

try {
  process.exitCode = await runCli(process.argv.slice(2), undefined, packageVersion());
} catch (error) {
  process.stderr.write(`warpfold: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
