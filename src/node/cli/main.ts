#!/usr/bin/env node
// The `warpfold` executable (package.json "bin"): built to dist/cli.js.
import { readFileSync } from 'node:fs';
import { heapLimitFor, rerunWithHeapLimit } from './heap-limit.ts';
import { runCli } from './run-cli.ts';

function packageVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(new URL(/* @vite-ignore */ '../package.json', import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return 'unknown';
  }
}

const argv = process.argv.slice(2);
try {
  const heapLimit = heapLimitFor(argv);
  process.exitCode =
    heapLimit !== undefined
      ? rerunWithHeapLimit(heapLimit, process.argv[1], argv)
      : await runCli(argv, undefined, packageVersion());
} catch (error) {
  process.stderr.write(`warpfold: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
