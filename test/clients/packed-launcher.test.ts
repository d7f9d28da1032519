import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packRepository } from '../helpers/pack-repository.ts';
import { readLedger } from '../helpers/proxy-process.ts';
import {
  FINAL_ANSWER_PREFIX,
  SCRIPTED_PROMPT,
  scriptedCalls,
  startScriptedProvider,
} from '../helpers/scripted-provider/index.ts';
import { clientBin, makeSandbox, TEST_API_KEY } from './agent-runs.ts';

const root = mkdtempSync(join(tmpdir(), 'warpfold-new-user-'));
let proxyPid: number | undefined;

afterAll(() => {
  if (proxyPid !== undefined) {
    try {
      process.kill(proxyPid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a new user: npm pack, then `npx --package ./warpfold-0.1.0.tgz warpfold claude -- -p …`', () => {
  it('starts a proxy, runs the real Claude Code through it against the scripted provider, and folds', async () => {
    const { tarball } = packRepository(root);
    const provider = await startScriptedProvider();
    const sandbox = makeSandbox();
    const state = join(root, 'state');
    try {
      // the agent's folder has no package.json and no node_modules: npx takes warpfold from the tarball alone
      expect(existsSync(join(sandbox.work, 'package.json'))).toBe(false);
      const env: NodeJS.ProcessEnv = {
        PATH: `${dirname(clientBin('claude'))}:${process.env.PATH}`,
        HOME: sandbox.home,
        LANG: 'C.UTF-8',
        TERM: 'dumb',
        NO_COLOR: '1',
        TMPDIR: tmpdir(),
        npm_config_cache: join(root, 'npm-cache'),
        npm_config_update_notifier: 'false',
        ANTHROPIC_API_KEY: TEST_API_KEY,
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        IS_SANDBOX: '1',
      };
      mkdirSync(env.npm_config_cache!, { recursive: true });
      const { code, stdout, stderr } = await run(
        'npx',
        [
          '--yes',
          '--package',
          tarball,
          'warpfold',
          'claude',
          '--state-dir',
          state,
          '--anthropic-upstream',
          provider.url,
          '--ceiling',
          '40000',
          '--',
          '-p',
          SCRIPTED_PROMPT,
          '--max-turns',
          '80',
          '--output-format',
          'json',
          '--dangerously-skip-permissions',
        ],
        sandbox.work,
        env,
      );
      const record = JSON.parse(readFileSync(join(state, 'proxy.json'), 'utf8')) as { pid: number; url: string };
      proxyPid = record.pid;
      expect(code, stderr.slice(-2000)).toBe(0);
      expect(stdout).toContain(FINAL_ANSWER_PREFIX);
      expect(scriptedCalls(provider.requests).length).toBeGreaterThanOrEqual(40);
      expect(provider.requests.every((request) => request.status === 200)).toBe(true);
      // the proxy it started folded the session, and said so on every call
      const ledger = readLedger(state);
      expect(ledger.length).toBe(provider.requests.length);
      expect(ledger.every((line) => ['folded', 'passthrough', 'shadow'].includes(line.verdict))).toBe(true);
      expect(ledger.filter((line) => line.verdict === 'folded').length).toBeGreaterThan(ledger.length / 2);
      expect(ledger.every((line) => line.forwardedTokens <= 40_000 || line.verdict !== 'folded')).toBe(true);
    } finally {
      await provider.close();
      sandbox.remove();
    }
  }, 900_000);
});
