/** Where a command writes: results to `stdout`, everything a person reads to `stderr`. */
export interface CliOutput {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Writes a line to stderr once per `key`, so a notice repeats neither per file nor per call. */
  noticeOnce(key: string, line: string): void;
  /** Writes a line to stderr. */
  warn(line: string): void;
}

export function createCliOutput(
  stdout: CliOutput['stdout'] = process.stdout,
  stderr: CliOutput['stderr'] = process.stderr,
): CliOutput {
  const said = new Set<string>();
  return {
    stdout,
    stderr,
    noticeOnce(key, line) {
      if (said.has(key)) return;
      said.add(key);
      stderr.write(`warpfold: ${line}\n`);
    },
    warn(line) {
      stderr.write(`warpfold: ${line}\n`);
    },
  };
}
