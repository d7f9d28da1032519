import { startProxy } from '../proxy/start-proxy.ts';
import type { CliOutput } from './cli-output.ts';
import { PROXY_HELP } from './help-texts.ts';
import { readProxyOptions } from './proxy-options.ts';
import { loadTokenCounter } from './token-counting.ts';
import { EXIT_OK, UsageError } from './usage-error.ts';

/** `warpfold proxy`: serves the fold gateway until SIGINT or SIGTERM; prints the URL on stdout. */
export async function proxyCommand(args: readonly string[], output: CliOutput): Promise<number> {
  const { options, help, positionals } = readProxyOptions('proxy', args);
  if (help) {
    output.stdout.write(PROXY_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, 'proxy');
  const { countTokens } = loadTokenCounter();
  const proxy = await startProxy({
    ...options,
    countTokens,
    onError: (error) => output.warn(`${error instanceof Error ? error.message : String(error)}`),
  });
  output.stdout.write(`${proxy.url}\n`);
  output.stderr.write(
    `warpfold proxy: serving on ${proxy.url}${options.shadow ? ' (shadow: forwarding requests as received)' : ''}; state in ${proxy.stateDir}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await proxy.close();
  return EXIT_OK;
}
