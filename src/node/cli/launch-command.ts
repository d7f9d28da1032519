import { spawn } from 'node:child_process';
import { closeSync, openSync, promises as fs } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants } from 'node:os';
import { DEFAULT_UPSTREAMS } from '../../gateway/index.ts';
import { findModel } from '../../models/index.ts';
import type { ProxyOptions } from '../proxy/start-proxy.ts';
import { defaultStateDir, processAlive, readProxyRecord, type ProxyRecord } from '../proxy/proxy-state.ts';
import type { CliOutput } from './cli-output.ts';
import { LAUNCH_HELP } from './help-texts.ts';
import { proxyArguments, readProxyOptions } from './proxy-options.ts';
import { EXIT_OK, UsageError } from './usage-error.ts';

export type AgentName = 'claude' | 'codex' | 'gemini' | 'pi';

/** How long a proxy started in the background gets to write proxy.json and answer. */
const START_WAIT_MS = 15_000;

async function answers(url: string, token: string | undefined): Promise<boolean> {
  try {
    const response = await fetch(`${url}/warpfold/sessions`, {
      headers: token ? { 'x-warpfold-token': token } : {},
      signal: AbortSignal.timeout(2_000),
    });
    await response.body?.cancel();
    return response.headers.has('x-warpfold-verdict');
  } catch {
    return false;
  }
}

/** The proxy proxy.json names, when its process is alive and its port answers. */
async function runningProxy(stateDir: string, token: string | undefined): Promise<ProxyRecord | undefined> {
  const record = await readProxyRecord(stateDir);
  if (record === undefined || !processAlive(record.pid)) return undefined;
  return (await answers(record.url, token)) ? record : undefined;
}

/** Starts `warpfold proxy` detached (it outlives the agent, for the next launch), logging to proxy.log. */
async function startDetached(options: ProxyOptions, stateDir: string): Promise<ProxyRecord> {
  await fs.mkdir(stateDir, { recursive: true, mode: 0o700 });
  const log = openSync(join(stateDir, 'proxy.log'), 'a', 0o600);
  const child = spawn(
    process.execPath,
    [...process.execArgv, process.argv[1], 'proxy', ...proxyArguments({ ...options, stateDir })],
    {
      detached: true,
      stdio: ['ignore', log, log],
      env: options.token ? { ...process.env, WARPFOLD_PROXY_TOKEN: options.token } : process.env,
    },
  );
  child.unref();
  closeSync(log);
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    const record = await readProxyRecord(stateDir);
    if (record !== undefined && record.pid === child.pid && (await answers(record.url, options.token))) return record;
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new UsageError(`the proxy did not start; see ${join(stateDir, 'proxy.log')}`);
}

/** A pi agent folder for this run: the user's files, with every provider's baseUrl on the proxy. */
async function piAgentDir(proxyUrl: string): Promise<string> {
  const userDir = process.env.PI_CODING_AGENT_DIR ?? join(homedir(), '.pi', 'agent');
  const dir = await fs.mkdtemp(join(tmpdir(), 'warpfold-pi-'));
  for (const name of ['auth.json', 'settings.json'])
    await fs.copyFile(join(userDir, name), join(dir, name)).catch(() => undefined);
  let models: { providers?: Record<string, Record<string, unknown>> } = {};
  try {
    models = JSON.parse(await fs.readFile(join(userDir, 'models.json'), 'utf8'));
  } catch {
    // no models.json of the user's: the built-in providers below
  }
  const providers = { ...models.providers };
  const baseFor = (api: unknown) =>
    api === 'google-generative-ai' ? `${proxyUrl}/v1beta` : api === 'anthropic-messages' ? proxyUrl : `${proxyUrl}/v1`;
  for (const [name, provider] of Object.entries(providers))
    providers[name] = { ...provider, baseUrl: baseFor(provider.api) };
  for (const [name, api] of [
    ['anthropic', 'anthropic-messages'],
    ['openai', 'openai-responses'],
    ['google', 'google-generative-ai'],
  ] as const)
    if (providers[name] === undefined) providers[name] = { baseUrl: baseFor(api) };
  await fs.writeFile(join(dir, 'models.json'), `${JSON.stringify({ ...models, providers }, null, 2)}\n`, {
    mode: 0o600,
  });
  return dir;
}

/**
 * Behind a custom base URL Claude Code assumes a 200k window and compacts by it. When the upstream
 * is the first-party API, the model it runs (`--model`, else ANTHROPIC_MODEL) keeps its full window,
 * unless the user set the compaction window already.
 */
export function claudeCompactWindow(
  env: NodeJS.ProcessEnv,
  clientArgs: readonly string[],
  anthropicUpstream: string | undefined,
): Record<string, string> {
  if (env.CLAUDE_CODE_AUTO_COMPACT_WINDOW !== undefined) return {};
  if (anthropicUpstream !== undefined && anthropicUpstream !== DEFAULT_UPSTREAMS.anthropic) return {};
  const flag = clientArgs.indexOf('--model');
  const model = flag >= 0 ? clientArgs[flag + 1] : env.ANTHROPIC_MODEL;
  const entry = model === undefined ? null : findModel(model);
  return entry?.provider === 'anthropic'
    ? { CLAUDE_CODE_AUTO_COMPACT_WINDOW: String(entry.inputLimitTokens ?? entry.contextWindowTokens) }
    : {};
}

/** The agent's command line and environment, pointed at the proxy. */
async function agentLaunch(
  agent: AgentName,
  proxyUrl: string,
  clientArgs: readonly string[],
  options: ProxyOptions,
): Promise<{ args: string[]; env: NodeJS.ProcessEnv; cleanup?: () => Promise<void> }> {
  const env = { ...process.env };
  switch (agent) {
    case 'claude':
      return {
        args: [...clientArgs],
        env: {
          ...env,
          ANTHROPIC_BASE_URL: proxyUrl,
          ...claudeCompactWindow(env, clientArgs, options.upstreams?.anthropic),
        },
      };
    case 'gemini':
      return { args: [...clientArgs], env: { ...env, GOOGLE_GEMINI_BASE_URL: proxyUrl } };
    case 'codex': {
      // a provider of our own on the command line: the user's config.toml is never written
      const auth = env.OPENAI_API_KEY ? 'env_key="OPENAI_API_KEY"' : 'requires_openai_auth=true';
      const settings = [
        `model_providers.warpfold.name="warpfold"`,
        `model_providers.warpfold.base_url="${proxyUrl}/v1"`,
        `model_providers.warpfold.wire_api="responses"`,
        `model_providers.warpfold.${auth}`,
        'model_provider="warpfold"',
      ];
      return { args: [...settings.flatMap((setting) => ['-c', setting]), ...clientArgs], env };
    }
    case 'pi': {
      const dir = await piAgentDir(proxyUrl);
      return {
        args: [...clientArgs],
        env: { ...env, PI_CODING_AGENT_DIR: dir },
        cleanup: () => fs.rm(dir, { recursive: true, force: true }),
      };
    }
  }
}

/** `warpfold claude|codex|gemini|pi [PROXY FLAGS] [-- CLIENT ARGS]`: the agent through the proxy; its exit code is ours. */
export async function launchCommand(agent: AgentName, args: readonly string[], output: CliOutput): Promise<number> {
  const split = args.indexOf('--');
  const proxyArgs = split < 0 ? args : args.slice(0, split);
  const clientArgs = split < 0 ? [] : args.slice(split + 1);
  const { options, help, positionals } = readProxyOptions(agent, proxyArgs);
  if (help) {
    output.stdout.write(LAUNCH_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument "${positionals[0]}": pass the agent's own after --`, agent);
  const stateDir = options.stateDir ?? defaultStateDir();
  const proxy = (await runningProxy(stateDir, options.token)) ?? (await startDetached(options, stateDir));
  const launch = await agentLaunch(agent, proxy.url, clientArgs, options);
  try {
    return await new Promise<number>((resolve) => {
      const child = spawn(agent, launch.args, { stdio: 'inherit', env: launch.env });
      child.on('error', (error: NodeJS.ErrnoException) => {
        output.warn(error.code === 'ENOENT' ? `${agent} is not on PATH` : error.message);
        resolve(127);
      });
      child.on('exit', (code, signal) => resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
    });
  } finally {
    await launch.cleanup?.();
  }
}
