import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import clients from '../../scripts/clients.json' with { type: 'json' };
import { SCRIPTED_PROMPT, writeScriptData } from '../helpers/scripted-provider/index.ts';

export type ClientName = 'claude' | 'codex' | 'gemini' | 'pi';

const root = resolve(import.meta.dirname, '..', '..');
const cache = process.env.WARPFOLD_CLIENTS_CACHE
  ? resolve(process.env.WARPFOLD_CLIENTS_CACHE)
  : join(root, '.cache', 'clients');

/** The installed client's executable (scripts/install-clients.mjs put it there). */
export function clientBin(name: ClientName): string {
  const client = clients.find((candidate) => candidate.name === name)!;
  return join(cache, `${client.name}@${client.version}`, 'node_modules', '.bin', client.bin);
}

/** A throw-away home and working directory for one client run, with the script's data files. */
export interface Sandbox {
  readonly root: string;
  readonly home: string;
  readonly work: string;
  remove(): void;
}

export function makeSandbox(steps?: number): Sandbox {
  const rootFolder = mkdtempSync(join(tmpdir(), 'warpfold-client-'));
  const home = join(rootFolder, 'home');
  const work = join(rootFolder, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  writeScriptData(work, steps);
  return { root: rootFolder, home, work, remove: () => rmSync(rootFolder, { recursive: true, force: true }) };
}

export interface ClientRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
}

/** A fixed, made-up key: the scripted provider accepts any, and no real key is ever read or passed on. */
export const TEST_API_KEY = 'sk-warpfold-scripted-test-key';

export interface RunOptions {
  /** The provider's or the proxy's root URL, `http://127.0.0.1:PORT` (no `/v1`). */
  readonly baseUrl: string;
  readonly sandbox: Sandbox;
  readonly prompt?: string;
  readonly timeoutMs?: number;
  /** Extra request headers the client adds (`x-warpfold-session`, `x-warpfold-ceiling`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Only what a client needs: nothing of this shell's environment (keys, proxies, other configs) leaks in. */
const baseEnvironment = (home: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: home,
  LANG: 'C.UTF-8',
  TERM: 'dumb',
  NO_COLOR: '1',
  TMPDIR: tmpdir(),
});

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, timeoutMs: number) {
  return new Promise<ClientRun>((resolvePromise) => {
    const started = Date.now();
    // stdin is /dev/null: Codex and the Gemini CLI wait on an open stdin
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n[test] killed after ${timeoutMs} ms`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolvePromise({ exitCode, signal, stdout, stderr, wallMs: Date.now() - started });
    });
  });
}

const headerLines = (headers: Readonly<Record<string, string>> | undefined) =>
  Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/** Claude Code: `claude -p … --output-format json`, Anthropic Messages at ANTHROPIC_BASE_URL. */
export function runClaude(options: RunOptions & { readonly maxTurns?: number }): Promise<ClientRun> {
  const env = {
    ...baseEnvironment(options.sandbox.home),
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: TEST_API_KEY,
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // --dangerously-skip-permissions as root
    IS_SANDBOX: '1',
    ...(options.headers ? { ANTHROPIC_CUSTOM_HEADERS: headerLines(options.headers) } : {}),
  };
  const args = [
    '-p',
    options.prompt ?? SCRIPTED_PROMPT,
    '--max-turns',
    String(options.maxTurns ?? 80),
    '--output-format',
    'json',
    '--dangerously-skip-permissions',
  ];
  return run(clientBin('claude'), args, env, options.sandbox.work, options.timeoutMs ?? 240_000);
}

/** Codex: a custom Responses provider in $CODEX_HOME/config.toml, `codex exec --json`. */
export function runCodex(options: RunOptions): Promise<ClientRun> {
  const codexHome = join(options.sandbox.root, 'codex-home');
  mkdirSync(codexHome, { recursive: true });
  const headers = Object.entries(options.headers ?? {})
    .map(([name, value]) => `${JSON.stringify(name)} = ${JSON.stringify(value)}`)
    .join(', ');
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.5-codex"',
      // no update check, no analytics: nothing but the provider is called
      'check_for_update_on_startup = false',
      'model_provider = "scripted"',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = "${options.baseUrl}/v1"`,
      'env_key = "SCRIPTED_API_KEY"',
      'wire_api = "responses"',
      ...(headers === '' ? [] : [`http_headers = { ${headers} }`]),
      '[analytics]',
      'enabled = false',
      '[features]',
      'plugins = false',
      'apps = false',
      '',
    ].join('\n'),
  );
  const env = { ...baseEnvironment(options.sandbox.home), CODEX_HOME: codexHome, SCRIPTED_API_KEY: TEST_API_KEY };
  const args = [
    'exec',
    '--skip-git-repo-check',
    '--dangerously-bypass-approvals-and-sandbox',
    '--json',
    options.prompt ?? SCRIPTED_PROMPT,
  ];
  return run(clientBin('codex'), args, env, options.sandbox.work, options.timeoutMs ?? 240_000);
}

/** Gemini CLI: GOOGLE_GEMINI_BASE_URL and API-key auth selected in ~/.gemini/settings.json. */
export function runGemini(options: RunOptions): Promise<ClientRun> {
  const settings = join(options.sandbox.home, '.gemini');
  mkdirSync(settings, { recursive: true });
  writeFileSync(
    join(settings, 'settings.json'),
    `${JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      // no usage statistics (Clearcut), telemetry or update checks: nothing but the provider is called
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    })}\n`,
  );
  const env = {
    ...baseEnvironment(options.sandbox.home),
    GOOGLE_GEMINI_BASE_URL: options.baseUrl,
    GEMINI_API_KEY: TEST_API_KEY,
    GEMINI_CLI_NO_RELAUNCH: 'true',
    ...(options.headers ? { GEMINI_CLI_CUSTOM_HEADERS: headerLines(options.headers).replace(/\n/g, ',') } : {}),
  };
  const args = ['-p', options.prompt ?? SCRIPTED_PROMPT, '--yolo', '--skip-trust', '-o', 'json'];
  return run(clientBin('gemini'), args, env, options.sandbox.work, options.timeoutMs ?? 240_000);
}

/** pi: a provider in $PI_CODING_AGENT_DIR/models.json speaking Chat Completions (`openai-completions`). */
export function runPi(options: RunOptions): Promise<ClientRun> {
  const agentDirectory = join(options.sandbox.root, 'pi-agent');
  mkdirSync(agentDirectory, { recursive: true });
  const models = {
    providers: {
      scripted: {
        baseUrl: `${options.baseUrl}/v1`,
        api: 'openai-completions',
        apiKey: TEST_API_KEY,
        ...(options.headers ? { headers: options.headers } : {}),
        models: [
          {
            id: 'scripted-model',
            name: 'Scripted',
            reasoning: false,
            input: ['text'],
            contextWindow: 400_000,
            maxTokens: 8_192,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          },
        ],
      },
    },
  };
  writeFileSync(join(agentDirectory, 'models.json'), `${JSON.stringify(models, null, 2)}\n`);
  const env = { ...baseEnvironment(options.sandbox.home), PI_CODING_AGENT_DIR: agentDirectory };
  const args = ['-p', '--no-session', '--model', 'scripted/scripted-model', options.prompt ?? SCRIPTED_PROMPT];
  return run(clientBin('pi'), args, env, options.sandbox.work, options.timeoutMs ?? 240_000);
}

export const RUNNERS: Record<ClientName, (options: RunOptions) => Promise<ClientRun>> = {
  claude: runClaude,
  codex: runCodex,
  gemini: runGemini,
  pi: runPi,
};
