import { createCliOutput, type CliOutput } from './cli-output.ts';
import { foldCommand } from './fold-command.ts';
import { FOLD_HELP, INSPECT_HELP, LAUNCH_HELP, MAIN_HELP, PROXY_HELP, REPORT_HELP } from './help-texts.ts';
import { launchCommand } from './launch-command.ts';
import { proxyCommand } from './proxy-command.ts';
import { inspectCommand } from './inspect-command.ts';
import { reportCommand } from './report-command.ts';
import { EXIT_OK, EXIT_USAGE, UsageError } from './usage-error.ts';

const COMMANDS: Readonly<
  Record<string, { run: (args: readonly string[], output: CliOutput) => Promise<number>; help: string }>
> = {
  report: { run: reportCommand, help: REPORT_HELP },
  inspect: { run: inspectCommand, help: INSPECT_HELP },
  fold: { run: foldCommand, help: FOLD_HELP },
  proxy: { run: proxyCommand, help: PROXY_HELP },
  claude: { run: (args, output) => launchCommand('claude', args, output), help: LAUNCH_HELP },
  codex: { run: (args, output) => launchCommand('codex', args, output), help: LAUNCH_HELP },
  gemini: { run: (args, output) => launchCommand('gemini', args, output), help: LAUNCH_HELP },
  pi: { run: (args, output) => launchCommand('pi', args, output), help: LAUNCH_HELP },
};

/** The `warpfold` command line: runs one subcommand and returns the exit code (0 ok, 1 a file failed, 2 bad usage). */
export async function runCli(
  argv: readonly string[],
  output: CliOutput = createCliOutput(),
  version = '0.0.0',
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    if (first === 'help' && rest[0] && COMMANDS[rest[0]]) output.stdout.write(COMMANDS[rest[0]].help);
    else (first === undefined ? output.stderr : output.stdout).write(MAIN_HELP);
    return first === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (first === '--version' || first === '-v') {
    output.stdout.write(`${version}\n`);
    return EXIT_OK;
  }
  const command = COMMANDS[first];
  try {
    if (!command) throw new UsageError(`unknown command "${first}"; commands: ${Object.keys(COMMANDS).join(', ')}`);
    return await command.run(rest, output);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.stderr.write(
      `warpfold: ${error.message}\nRun 'warpfold ${error.command ? `${error.command} ` : ''}--help' for usage.\n`,
    );
    return EXIT_USAGE;
  }
}
