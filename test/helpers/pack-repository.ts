import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './fixtures.ts';

export interface PackedRepository {
  /** The tarball's path. */
  readonly tarball: string;
  /** npm's report of what the tarball holds. */
  readonly files: ReadonlyArray<{ path: string }>;
}

/**
 * Packs the repository as a stranger's fresh clone would be packed: its tracked (and new, not
 * ignored) files are copied into `into/clone` with no dist/, node_modules is linked, and
 * `npm pack` builds dist/ through `prepare`. The tarball is written to `into`.
 */
export function packRepository(into: string, env: NodeJS.ProcessEnv = process.env): PackedRepository {
  const run = (command: string, args: string[], cwd: string): string =>
    execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', env });
  const clone = join(into, 'clone');
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], REPO_ROOT)
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    try {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      cpSync(join(REPO_ROOT, file), join(clone, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // deleted but not yet committed
    }
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  // prepare's build output comes first on stdout; the JSON report is the last thing npm prints
  const output = run('npm', ['pack', '--json', '--pack-destination', into], clone);
  const report = JSON.parse(output.slice(output.lastIndexOf('\n[\n') + 1)) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  return { tarball: join(into, report[0].filename), files: report[0].files };
}
