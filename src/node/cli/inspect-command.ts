import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MINIMUM_PRESSURE_CEILING_TOKENS } from '../../budget/resolve-context-budget.ts';
import { integerOption, parseCommandArguments, stringOption } from './arguments.ts';
import { ceilingForSession, engineOf } from './context-ceiling.ts';
import { priceForSession, priceOption } from './price-class.ts';
import { readSessionFile } from './read-session-file.ts';
import type { CliOutput } from './cli-output.ts';
import { INSPECT_HELP } from './help-texts.ts';
import { holdInspector } from './hold-inspector.ts';
import { inspectorFolder, startInspectorServer } from './inspector-server.ts';
import { inspectProxy } from './inspect-proxy.ts';
import { EXIT_FILE_FAILED, EXIT_OK, UsageError } from './usage-error.ts';

/** `warpfold inspect`: the inspector on 127.0.0.1 with one local file loaded; runs until interrupted. */
export async function inspectCommand(
  args: readonly string[],
  output: CliOutput,
  signal?: AbortSignal,
): Promise<number> {
  const { values, positionals } = parseCommandArguments('inspect', args, {
    port: { type: 'string' },
    open: { type: 'boolean' },
    ceiling: { type: 'string' },
    model: { type: 'string' },
    price: { type: 'string' },
    proxy: { type: 'string' },
    session: { type: 'string' },
    token: { type: 'string' },
  });
  if (values.help) {
    output.stdout.write(INSPECT_HELP);
    return EXIT_OK;
  }
  const port = integerOption('inspect', 'port', values.port, 0);
  if (port !== undefined && port > 65_535) throw new UsageError(`--port must be at most 65535, got ${port}`, 'inspect');
  const proxy = stringOption(values.proxy);
  if (proxy !== undefined) {
    if (positionals.length > 0) throw new UsageError('inspect takes a FILE or --proxy URL, not both', 'inspect');
    // the proxy's own ceiling and prices are the ones that reproduce what it forwarded
    for (const name of ['ceiling', 'model', 'price'] as const)
      if (values[name] !== undefined)
        throw new UsageError(
          `--${name} does not go with --proxy: the session's own ceiling and model apply`,
          'inspect',
        );
    return inspectProxy(
      {
        proxy,
        session: stringOption(values.session),
        token: stringOption(values.token) || process.env.WARPFOLD_PROXY_TOKEN || undefined,
        port,
        open: values.open === true,
      },
      output,
      signal,
    );
  }
  for (const name of ['session', 'token'] as const)
    if (values[name] !== undefined) throw new UsageError(`--${name} goes with --proxy URL only`, 'inspect');
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0
        ? 'name one transcript FILE (or --proxy URL)'
        : `inspect takes one FILE, got ${positionals.length}`,
      'inspect',
    );
  const ceilingOption = integerOption('inspect', 'ceiling', values.ceiling, MINIMUM_PRESSURE_CEILING_TOKENS);
  const model = stringOption(values.model);
  const price = priceOption(stringOption(values.price), 'inspect');
  const file = resolve(positionals[0]);
  let problem: string | undefined;
  try {
    accessSync(file, constants.R_OK);
    if (!statSync(file).isFile()) problem = 'not a file';
  } catch (error) {
    problem = (error as Error).message;
  }
  if (problem !== undefined) {
    output.warn(`${positionals[0]}: cannot read: ${problem}`);
    return EXIT_FILE_FAILED;
  }
  const folder = inspectorFolder();
  if (!existsSync(join(folder, 'index.html'))) {
    output.warn(
      `the built inspector is missing at ${folder} (run npm run build:inspector in a checkout, or set WARPFOLD_INSPECTOR_DIR)`,
    );
    return EXIT_FILE_FAILED;
  }
  // the ceiling and prices `warpfold report` uses for the same file
  let read;
  try {
    read = await readSessionFile(file);
  } catch (error) {
    output.warn(`${positionals[0]}: ${(error as Error).message}`);
    return EXIT_FILE_FAILED;
  }
  const ceiling = ceilingForSession(
    { ceiling: ceilingOption, model },
    read.metadata.model,
    engineOf(read.format, read.dialect),
    'inspect',
  );
  const sessionPrice = priceForSession(price, ceiling.model);
  output.warn(
    `ceiling ${ceiling.ceiling.toLocaleString('en-US')} (${ceiling.explanation}); prices ${sessionPrice?.model ?? "unpriced: the benchmark's sonnet-class shown"}`,
  );
  let server;
  try {
    server = await startInspectorServer(file, folder, port, {
      ceiling: String(ceiling.ceiling),
      ...(sessionPrice === null ? {} : { price: sessionPrice.model }),
    });
  } catch (error) {
    output.warn(`cannot listen on 127.0.0.1${port ? `:${port}` : ''}: ${(error as Error).message}`);
    return EXIT_FILE_FAILED;
  }
  await holdInspector(server, output, values.open === true, signal);
  return EXIT_OK;
}
