import type { CliOutput } from './cli-output.ts';

export interface Progress {
  /** A new session starts: `index` from 1 of `count`. */
  session(index: number, count: number, name: string): void;
  call(done: number, of: number): void;
  done(): void;
}

const QUIET: Progress = { session: () => {}, call: () => {}, done: () => {} };
const BAR_WIDTH = 24;
/** Redraws at most this often; a session has thousands of calls. */
const REDRAW_MILLISECONDS = 100;

/** A one-line progress bar on stderr, only when stderr is a terminal; quiet otherwise. */
export function createProgress(output: CliOutput): Progress {
  if (!output.stderr.isTTY) return QUIET;
  let label = '';
  let lastDraw = 0;
  const draw = (done: number, of: number) => {
    const share = of > 0 ? done / of : 1;
    const filled = Math.round(share * BAR_WIDTH);
    const columns = output.stderr.columns ?? 80;
    const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${done}/${of} calls`;
    output.stderr.write(`\r${line.slice(0, columns - 1)}\x1b[K`);
  };
  return {
    session(index, count, name) {
      label = `${index}/${count} ${name.length > 30 ? `…${name.slice(-29)}` : name}`;
      draw(0, 0);
    },
    call(done, of) {
      const now = performance.now();
      if (now - lastDraw < REDRAW_MILLISECONDS && done < of) return;
      lastDraw = now;
      draw(done, of);
    },
    done() {
      output.stderr.write('\r\x1b[K');
    },
  };
}
