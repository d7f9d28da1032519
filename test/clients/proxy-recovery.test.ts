import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyProcess } from '../helpers/proxy-process.ts';
import { FINAL_ANSWER_PREFIX, type Fault, type LoggedRequest } from '../helpers/scripted-provider/index.ts';
import type { ClientName, Sandbox } from './agent-runs.ts';
import { foldedSessionFindings, pairCalls, runProxiedSession } from './proxied-session.ts';
import { historyOf, sharedLeadingItems } from './wire-checks.ts';

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

describe('warpfold proxy recovers and stays transparent', () => {
  it('Claude Code finishes its session when the proxy is SIGKILLed mid-call and restarted on the same port and state dir', async () => {
    let proxy: () => ProxyProcess = () => {
      throw new Error('no proxy yet');
    };
    let restart: () => Promise<ProxyProcess> = async () => proxy();
    let killedAt = -1;
    const session = await runProxiedSession({
      client: 'claude',
      withProxy: (current, again) => {
        proxy = current;
        restart = again;
      },
      provider: {
        // step 24 is folded: kill the proxy while the provider holds that call, then start it again
        beforeReply: async (request: LoggedRequest) => {
          if (killedAt >= 0 || request.exchange?.kind !== 'tool-call' || request.exchange.step !== 24) return;
          killedAt = request.index;
          await proxy().kill();
          await restart();
        },
      },
    });
    sandboxes.push(session.sandbox);
    const findings = foldedSessionFindings(session, 'anthropic');
    console.log(
      `[clients] claude sigkill ${JSON.stringify({ exit: session.run.exitCode, wallMs: session.run.wallMs, killedAt, ...findings, problems: findings.problems.slice(0, 8) })}`,
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
    expect(steps.size).toBeGreaterThanOrEqual(40);
    // nothing lost: the call after the restart keeps the sealed prefix the call before the kill sent
    const pairs = pairCalls(session);
    const before = pairs[killedAt - 1].forwarded.json;
    const after = pairs[killedAt + 1].forwarded.json;
    expect(sharedLeadingItems('anthropic', before, after)).toBeGreaterThanOrEqual(
      historyOf('anthropic', before).length - 1,
    );
    const sessionsBefore = new Set(
      session.ledger
        .slice(0, killedAt)
        .map((line) => line.session)
        .filter(Boolean),
    );
    const sessionsAfter = new Set(
      session.ledger
        .slice(killedAt)
        .map((line) => line.session)
        .filter(Boolean),
    );
    expect([...sessionsAfter].every((id) => sessionsBefore.has(id))).toBe(true);
    // the killed call may leave no ledger line; every other check holds as in an unbroken session
    expect(findings.problems.filter((problem) => !problem.startsWith('ledger has'))).toEqual([]);
    expect(session.ledger.length).toBeGreaterThanOrEqual(pairs.length - 1);
  });

  const FAULTS: Record<'claude' | 'codex', Fault[]> = {
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
  };

  it.each(['claude', 'codex'] as const)(
    'upstream 429, 500 and overloaded reach %s with their status and body, and it retries to the end',
    async (client: ClientName & keyof typeof FAULTS) => {
      const faults = FAULTS[client].map((fault) => ({ ...fault, fromStep: 12 }));
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
