import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProxyProcess, readLedger, startProxy } from '../helpers/proxy-process.ts';
import {
  FINAL_ANSWER_PREFIX,
  type Fault,
  type LoggedRequest,
  startScriptedProvider,
} from '../helpers/scripted-provider/index.ts';
import { type ClientName, makeSandbox, RUNNERS, type Sandbox } from './agent-runs.ts';
import { CEILING, CLIENT_API, foldedSessionFindings, pairCalls, runProxiedSession } from './proxied-session.ts';
import { pairingProblems, requestTokens } from './wire-checks.ts';

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

describe('warpfold proxy recovers and stays transparent', () => {
  it.each(['claude', 'codex', 'gemini', 'pi'] as const)(
    '%s finishes its session when the proxy is SIGKILLed mid-call and restarted on the same port and state dir',
    async (client: ClientName) => {
      const api = CLIENT_API[client];
      let proxy: () => ProxyProcess = () => {
        throw new Error('no proxy yet');
      };
      let restart: () => Promise<ProxyProcess> = async () => proxy();
      let killedAt = -1;
      const session = await runProxiedSession({
        client,
        withProxy: (current, again) => {
          proxy = current;
          restart = again;
        },
        provider: {
          // a 30-step session (short, for CI); step 18 is folded: kill the proxy while the provider
          // holds that call, then start it again
          steps: 30,
          beforeReply: async (request: LoggedRequest) => {
            if (killedAt >= 0 || request.exchange?.kind !== 'tool-call' || request.exchange.step !== 18) return;
            killedAt = request.index;
            await proxy().kill();
            await restart();
          },
        },
      });
      sandboxes.push(session.sandbox);
      const findings = foldedSessionFindings(session, api);
      console.log(
        `[clients] ${client} sigkill ${JSON.stringify({ exit: session.run.exitCode, wallMs: session.run.wallMs, killedAt, ...findings, problems: findings.problems.slice(0, 8) })}`,
      );
      expect(killedAt).toBeGreaterThan(0);
      expect(session.run.exitCode, session.run.stderr.slice(-2000)).toBe(0);
      expect(session.run.stdout).toContain(FINAL_ANSWER_PREFIX);
      // the killed call reset the client's connection; the client retried against the restarted proxy
      expect(session.relay.calls.some((call) => call.error !== undefined)).toBe(true);
      const steps = new Set(
        session.provider.requests
          .filter((request) => request.exchange?.kind === 'tool-call')
          .map((r) => r.exchange!.step),
      );
      expect(steps.size).toBe(30);
      // nothing lost: the client's retry of the killed call reaches the restarted proxy with the same
      // bytes, and the proxy, resuming its saved session, forwards exactly what it forwarded before the kill
      const pairs = pairCalls(session);
      const killed = pairs[killedAt];
      const retried = pairs[killedAt + 1];
      expect(retried.sent.raw.equals(killed.sent.raw)).toBe(true);
      expect(retried.forwarded.rawBody.toString('utf8')).toBe(killed.forwarded.rawBody.toString('utf8'));
      // the session the killed call belonged to goes on after the restart: it never starts over
      // (a Gemini loop check that first outgrows the ceiling after the kill starts a session of its own)
      const resumed = pairs[killedAt - 1].sent.session;
      expect(resumed).toBeDefined();
      const afterKill = pairs.slice(killedAt + 1).filter((pair) => pair.sent.session === resumed);
      expect(afterKill.length).toBeGreaterThanOrEqual(10);
      expect(
        afterKill.some((pair) => pair.sent.epoch === 'first-call' || pair.sent.epoch === 'restored-mismatch'),
      ).toBe(false);
      // the killed call may leave no ledger line; every other check holds as in an unbroken session
      const killedCall = `call ${killedAt} `;
      expect(
        findings.problems.filter((problem) => !problem.startsWith('ledger has') && !problem.startsWith(killedCall)),
      ).toEqual([]);
      expect(session.ledger.length).toBeGreaterThanOrEqual(pairs.length - 1);
    },
  );

  const FAULTS: Record<ClientName, Fault[]> = {
    claude: [
      {
        status: 429,
        body: { type: 'error', error: { type: 'rate_limit_error', message: 'scripted 429' } },
        headers: { 'retry-after': '0' },
      },
      { status: 500, body: { type: 'error', error: { type: 'api_error', message: 'scripted 500' } } },
      { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
    ],
    codex: [
      {
        status: 429,
        body: { error: { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded', message: 'scripted 429' } },
        headers: { 'retry-after': '0' },
      },
      { status: 500, body: { error: { type: 'server_error', code: 'server_error', message: 'scripted 500' } } },
      { status: 503, body: { error: { type: 'server_error', code: 'overloaded', message: 'scripted overloaded' } } },
    ],
    gemini: [
      { status: 429, body: { error: { code: 429, message: 'scripted 429', status: 'RESOURCE_EXHAUSTED' } } },
      { status: 500, body: { error: { code: 500, message: 'scripted 500', status: 'INTERNAL' } } },
      { status: 503, body: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } },
    ],
    pi: [
      {
        status: 429,
        body: { error: { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded', message: 'scripted 429' } },
        headers: { 'retry-after': '0' },
      },
      { status: 500, body: { error: { type: 'server_error', code: 'server_error', message: 'scripted 500' } } },
      { status: 503, body: { error: { type: 'server_error', code: 'overloaded', message: 'scripted overloaded' } } },
    ],
  };

  it.each(['claude', 'codex', 'gemini', 'pi'] as const)(
    'upstream 429, 500 and overloaded reach %s with their status and body, and it retries to the end',
    async (client: ClientName) => {
      // one fault each at steps 8, 10 and 12, as the history outgrows the ceiling; each retry succeeds
      const faults = FAULTS[client].map((fault, index) => ({ ...fault, fromStep: 8 + 2 * index }));
      const session = await runProxiedSession({
        client,
        provider: { steps: 16 },
        withProvider: (provider) => provider.failNext(...faults),
      });
      sandboxes.push(session.sandbox);
      const failed = session.relay.calls.filter((call) => call.status !== undefined && call.status >= 400);
      console.log(
        `[clients] ${client} errors ${JSON.stringify({ exit: session.run.exitCode, wallMs: session.run.wallMs, statuses: failed.map((call) => call.status) })}`,
      );
      expect(failed.map((call) => call.status)).toEqual(faults.map((fault) => fault.status));
      failed.forEach((call, index) => {
        expect(JSON.parse(call.responseBody.toString('utf8'))).toEqual(faults[index].body);
        expect(call.responseHeaders?.['x-warpfold-verdict']).toBeDefined();
      });
      expect(session.run.exitCode, session.run.stderr.slice(-2000)).toBe(0);
      expect(session.run.stdout).toContain(FINAL_ANSWER_PREFIX);
    },
  );
});

describe('two clients at once through one proxy', () => {
  it('Claude Code and pi run their sessions side by side: separate sessions, each bounded and paired', async () => {
    const provider = await startScriptedProvider();
    const claudeSandbox = makeSandbox();
    const piSandbox = makeSandbox();
    sandboxes.push(claudeSandbox, piSandbox);
    const stateDirectory = join(claudeSandbox.root, 'warpfold-state');
    mkdirSync(stateDirectory, { recursive: true });
    const proxy = await startProxy({ upstream: provider.url, stateDirectory });
    try {
      const started = Date.now();
      const [claude, pi] = await Promise.all([
        RUNNERS.claude({ baseUrl: proxy.url, sandbox: claudeSandbox }),
        RUNNERS.pi({ baseUrl: proxy.url, sandbox: piSandbox }),
      ]);
      const ledger = readLedger(stateDirectory);
      const sessions = new Map<string, number>();
      for (const line of ledger) if (line.session) sessions.set(line.session, (sessions.get(line.session) ?? 0) + 1);
      console.log(
        `[clients] claude+pi together ${JSON.stringify({ wallMs: Date.now() - started, claude: claude.exitCode, pi: pi.exitCode, requests: provider.requests.length, sessions: [...sessions.values()] })}`,
      );
      expect(claude.exitCode, claude.stderr.slice(-2000)).toBe(0);
      expect(pi.exitCode, pi.stderr.slice(-2000)).toBe(0);
      expect(claude.stdout).toContain(FINAL_ANSWER_PREFIX);
      expect(pi.stdout).toContain(FINAL_ANSWER_PREFIX);
      for (const api of ['anthropic', 'openai-chat'] as const) {
        const forwarded = provider.requests.filter((logged) => logged.api === api);
        expect(forwarded.filter((logged) => logged.exchange?.kind === 'tool-call').length).toBe(42);
        for (const logged of forwarded) {
          expect(requestTokens(api, logged.json)).toBeLessThanOrEqual(CEILING);
          expect(pairingProblems(api, logged.json)).toEqual([]);
        }
      }
      // one session per client, each folded, and a ledger line for every call
      expect([...sessions.values()].filter((calls) => calls >= 30).length).toBe(2);
      expect(ledger.length).toBe(provider.requests.length);
    } finally {
      await proxy.stop();
      await provider.close();
    }
  });
});
