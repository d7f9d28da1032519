import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** True when the module at `moduleUrl` is the script node (or tsx) was started with. */
export function isMainModule(moduleUrl: string): boolean {
  const started = process.argv[1];
  if (!started) return false;
  try {
    return realpathSync(started) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** Runs a script's main: an error meant for the user (a missing corpus, a bad flag) is one line on stderr and exit code 1, not a stack trace. */
export async function runCommand(main: () => Promise<void> | void): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (error instanceof Error && USER_ERRORS.has(error.name)) {
      console.error(error.message);
      process.exitCode = 1;
      return;
    }
    throw error;
  }
}

/** Error names whose message is the whole story. */
const USER_ERRORS = new Set(['CorpusMissingError', 'BenchUsageError']);
