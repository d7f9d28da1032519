import { spawn } from 'node:child_process';
import type { CliOutput } from './cli-output.ts';
import type { InspectorServer } from './inspector-server.ts';

/** Opens `url` in the default browser; best-effort, a failure is only said. */
function openBrowser(url: string, output: CliOutput): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => output.warn(`could not run ${command}; open ${url} yourself`));
    child.unref();
  } catch {
    output.warn(`could not run ${command}; open ${url} yourself`);
  }
}

/** Prints the inspector's URL (and opens it when asked), then serves until Ctrl-C, SIGTERM or `signal`. */
export async function holdInspector(
  server: InspectorServer,
  output: CliOutput,
  open: boolean,
  signal?: AbortSignal,
): Promise<void> {
  output.stdout.write(`${server.url}\n`);
  output.warn('serving the inspector on 127.0.0.1 only; press Ctrl-C to stop');
  if (open) openBrowser(server.url, output);
  await new Promise<void>((resolvePromise) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolvePromise();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop, { once: true });
    if (signal?.aborted) stop();
  });
  await server.close();
}
