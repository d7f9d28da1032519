// `warpfold report` on a 100 MB synthetic Claude Code session: wall time and peak RSS of the bin as
// a user runs it (the built dist/cli.js, a child process). Not part of `npm run bench`.
//
//   npx tsx bench/cli-report.ts [--megabytes 100] [--heap-mb N] [--keep]
// --heap-mb runs the bin under `node --max-old-space-size=N` (as NODE_OPTIONS would).
// Targets (issue 32): under 5 minutes and under 1 GB on the project's 2-core machine.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { parseArguments } from './cli/arguments.ts';
import { measuredOn } from './cli/environment.ts';
import { isMainModule, runCommand } from './cli/is-main.ts';
import { writeSyntheticClaudeSession } from './cli-report/synthetic-claude-session.ts';

const REPO_ROOT = resolve(import.meta.dirname, '..');

/** Peak resident set of a running process (VmHWM), in bytes; 0 once it has exited. */
function peakRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kilobytes = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    return kilobytes * 1024;
  } catch {
    return 0;
  }
}

/** User + system CPU seconds a running process has used so far (from /proc/PID/stat); 0 once it has exited. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The process and its descendants (the bin re-runs itself once under a heap limit). */
function processTree(pid: number): number[] {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) {
    try {
      const children = readFileSync(`/proc/${tree[index]}/task/${tree[index]}/children`, 'utf8').trim();
      if (children) tree.push(...children.split(/\s+/).map(Number));
    } catch {
      // exited
    }
  }
  return tree;
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  const megabytes = Number(parsed.megabytes ?? 100);
  const work = mkdtempSync(join(tmpdir(), 'warpfold-cli-report-'));
  try {
    // the bin as shipped: built into a folder inside node_modules/.cache, so gpt-tokenizer resolves as from an install
    const packageRoot = join(REPO_ROOT, 'node_modules/.cache/warpfold-cli-bench');
    rmSync(packageRoot, { recursive: true, force: true });
    mkdirSync(packageRoot, { recursive: true });
    await build({
      configFile: join(REPO_ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: join(packageRoot, 'dist'), emptyOutDir: true },
    });
    cpSync(join(REPO_ROOT, 'package.json'), join(packageRoot, 'package.json'));

    const session = join(work, '5e55a0c1-7d2b-4f3e-9a61-0b1c2d3e4f50.jsonl');
    const writing = performance.now();
    const written = await writeSyntheticClaudeSession(session, megabytes * 1024 * 1024);
    console.error(
      `wrote ${(written.bytes / 1048576).toFixed(1)} MB, ${written.lines} lines, ${written.calls} model calls in ${((performance.now() - writing) / 1000).toFixed(1)} s`,
    );

    const started = performance.now();
    const heap = parsed['heap-mb'] ? [`--max-old-space-size=${Number(parsed['heap-mb'])}`] : [];
    const child = spawn(process.execPath, [...heap, join(packageRoot, 'dist/cli.js'), 'report', session, '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let cpu = 0;
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    let peak = 0;
    const poll = setInterval(() => {
      const tree = processTree(child.pid!);
      // the wrapper waits while its re-run works: their peaks added, an upper bound of what both hold
      peak = Math.max(
        peak,
        tree.reduce((sum, pid) => sum + peakRss(pid), 0),
      );
      cpu = Math.max(
        cpu,
        tree.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
      );
    }, 250);
    const code = await new Promise<number | null>((resolvePromise) =>
      child.on('exit', (exitCode) => resolvePromise(exitCode)),
    );
    clearInterval(poll);
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`warpfold report exited ${code}`);
    const report = JSON.parse(stdout) as {
      sessions: Array<{
        calls: number;
        rawPeakTokens: number;
        ceiling: number;
        cost: Record<string, number | null>;
        warpfoldCachePercent: number;
        retentionPercent: number | null;
        foldMilliseconds: number;
      }>;
    };
    const row = report.sessions[0];
    const result = {
      file: {
        megabytes: +(statSync(session).size / 1048576).toFixed(1),
        lines: written.lines,
        calls: row.calls,
        rawPeakTokens: row.rawPeakTokens,
        ceiling: row.ceiling,
      },
      seconds: +seconds.toFixed(1),
      // the machine is shared: CPU seconds say what the run costs when it has a core to itself
      cpuSeconds: +cpu.toFixed(1),
      heapLimitMegabytes: parsed['heap-mb'] ? Number(parsed['heap-mb']) : 'chosen by the bin',
      peakRssMegabytes: +(peak / 1048576).toFixed(0),
      targets: { seconds: 300, peakRssMegabytes: 1024 },
      withinTargets: seconds < 300 && peak < 1024 * 1048576,
      figures: {
        cost: row.cost,
        warpfoldCachePercent: row.warpfoldCachePercent,
        retentionPercent: row.retentionPercent,
        foldSeconds: +(row.foldMilliseconds / 1000).toFixed(1),
      },
      measuredOn: measuredOn(),
    };
    console.log(JSON.stringify(result, null, 2));
    if (!result.withinTargets) process.exitCode = 1;
  } finally {
    if (parsed.keep !== 'true') rmSync(work, { recursive: true, force: true });
    else console.error(`kept ${work}`);
  }
}

if (isMainModule(import.meta.url)) await runCommand(main);
