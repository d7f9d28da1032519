import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FINAL_ANSWER_PREFIX, type LoggedRequest, startScriptedProvider } from '../helpers/scripted-provider/index.ts';
import { TEST_API_KEY } from './agent-runs.ts';
import { type EdgeSession, type EdgeWorker, runEdgeSession, startEdgeWorker, tenantLedger } from './edge-session.ts';
import { foldedSessionFindings, pairCalls } from './proxied-session.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const keep = (session: EdgeSession) => {
  cleanups.push(() => session.sandbox.remove());
  cleanups.push(() => session.edge.stop());
};

/** Every byte the worker's local state holds (SQLite files, WAL), to search for what must not be there. */
function storedBytes(directory: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else parts.push(readFileSync(path));
    }
  };
  walk(directory);
  return Buffer.concat(parts);
}

/** The provider key is in no log, no stored byte and no ledger line. */
function keyLeaks(session: EdgeSession): string[] {
  const leaks: string[] = [];
  if (session.edge.logs().includes(TEST_API_KEY)) leaks.push('wrangler log');
  if (storedBytes(join(session.edge.stateDirectory, 'state')).includes(TEST_API_KEY)) leaks.push('storage');
  if (JSON.stringify(session.ledger).includes(TEST_API_KEY)) leaks.push('ledger');
  if (JSON.stringify(session.sessions.body).includes(TEST_API_KEY)) leaks.push('sessions endpoint');
  return leaks;
}

/**
 * What the Workers runtime itself does to every subrequest, whatever the worker asks: it adds
 * `cf-worker` and sends its own `accept-encoding` (it decodes the answer for the worker). Every
 * other header reaches the provider as the client sent it.
 */
const RUNTIME_HEADERS = /^call \d+ \([^)]*\): header (accept-encoding|cf-worker): changed$/;
const wireProblems = (problems: readonly string[]) => problems.filter((problem) => !RUNTIME_HEADERS.test(problem));

const report = (label: string, values: Record<string, unknown>) =>
  console.log(`[clients] ${label} ${JSON.stringify(values)}`);

describe('the edge gateway under wrangler dev', () => {
  it('Claude Code runs 40+ tool calls through /anthropic at a 40,000 ceiling, surviving a SIGKILL of wrangler mid-session', async () => {
    let edge: EdgeWorker | undefined;
    let killedAt = -1;
    const session = await runEdgeSession({
      client: 'claude',
      prefix: '/anthropic',
      withEdge: (running) => {
        edge = running;
      },
      provider: {
        // step 24 is folded: kill wrangler's process group while the provider holds that call, then start it again
        beforeReply: async (request: LoggedRequest) => {
          if (killedAt >= 0 || request.exchange?.kind !== 'tool-call' || request.exchange.step !== 24) return;
          killedAt = request.index;
          await edge!.killAndRestart();
        },
      },
    });
    keep(session);
    const findings = foldedSessionFindings(session, 'anthropic');
    report('claude edge', {
      exit: session.run.exitCode,
      wallMs: session.run.wallMs,
      killedAt,
      refusedCalls: session.refusedCalls,
      ...findings,
      problems: wireProblems(findings.problems).slice(0, 12),
      problemCount: wireProblems(findings.problems).length,
      ledgerLines: session.sessionLines,
    });
    expect(session.run.exitCode, session.run.stderr.slice(-2000)).toBe(0);
    expect(session.run.stdout).toContain(FINAL_ANSWER_PREFIX);
    expect(killedAt).toBeGreaterThan(0);
    expect(findings.toolCalls).toBeGreaterThanOrEqual(40);
    expect(findings.maxRawTokens).toBeGreaterThan(2 * 40_000);
    expect(findings.folded).toBeGreaterThan(findings.calls / 2);
    // the call cut by the kill reached the provider but not the client; every other check holds
    // the call cut by the kill got no answer (no verdict, and the prefix check reads it as sent); every other check holds
    const killedStep = `(tool-call ${session.provider.requests[killedAt]?.exchange?.step})`;
    expect(
      wireProblems(findings.problems).filter((problem) => !/ledger has/.test(problem) && !problem.includes(killedStep)),
    ).toEqual([]);
    // nothing lost: the client's retry of the killed call reaches the restarted worker with the same
    // bytes, and the session object, resuming its saved state, forwards exactly what it forwarded
    // before the kill, in the same session
    const pairs = pairCalls(session);
    const [killed, retried] = [pairs[killedAt], pairs[killedAt + 1]];
    expect(retried.sent.raw.equals(killed.sent.raw)).toBe(true);
    expect(retried.forwarded.rawBody.toString('utf8')).toBe(killed.forwarded.rawBody.toString('utf8'));
    expect(retried.sent.session).toBe(pairs[killedAt - 1].sent.session);
    expect(['first-call', 'restored-mismatch']).not.toContain(retried.sent.epoch);
    expect(keyLeaks(session)).toEqual([]);
  });

  it('Codex runs 40+ tool calls through /openai/v1/responses at a 40,000 ceiling', async () => {
    const session = await runEdgeSession({ client: 'codex', prefix: '/openai' });
    keep(session);
    const findings = foldedSessionFindings(session, 'openai-responses');
    report('codex edge', {
      exit: session.run.exitCode,
      wallMs: session.run.wallMs,
      ...findings,
      problems: wireProblems(findings.problems).slice(0, 12),
      problemCount: wireProblems(findings.problems).length,
      ledgerLines: session.sessionLines,
    });
    expect(session.run.exitCode, session.run.stderr.slice(-2000)).toBe(0);
    expect(session.run.stdout).toContain(FINAL_ANSWER_PREFIX);
    expect(findings.toolCalls).toBeGreaterThanOrEqual(40);
    expect(findings.maxRawTokens).toBeGreaterThan(2 * 40_000);
    expect(findings.folded).toBeGreaterThan(0);
    expect(wireProblems(findings.problems)).toEqual([]);
    expect(pairCalls(session).length).toBe(session.relay.calls.filter((call) => call.method === 'POST').length);
    expect(keyLeaks(session)).toEqual([]);
  });

  it('security: no token or a wrong one → 401 and the provider sees nothing; one tenant cannot read another ledger', async () => {
    const provider = await startScriptedProvider();
    const edge = await startEdgeWorker(provider);
    cleanups.push(async () => {
      await edge.stop();
      await provider.close();
    });
    const url = edge.worker().url;
    const body = JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const base = { 'content-type': 'application/json', 'x-api-key': TEST_API_KEY, 'anthropic-version': '2023-06-01' };
    for (const headers of [base, { ...base, 'x-warpfold-token': 'wrong-token-0123456789abcdefXYZ' }]) {
      const answer = await fetch(`${url}/anthropic/v1/messages`, { method: 'POST', headers, body });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('x-warpfold-verdict')).toBe('passthrough; reason=unauthorized');
    }
    expect(provider.requests).toEqual([]);
    const served = await fetch(`${url}/anthropic/v1/messages`, {
      method: 'POST',
      headers: { ...base, 'x-warpfold-token': edge.tokens.teamA, 'x-warpfold-session': 'team-a-private' },
      body,
    });
    expect(served.status).toBe(200);
    await served.text();
    expect(provider.requests).toHaveLength(1);
    // a call of the second tenant's session: team-b's ledger lists it, team-a's does not, and neither reads the other's by id
    const teamB = await fetch(`${url}/anthropic/v1/messages`, {
      method: 'POST',
      headers: {
        ...base,
        'x-warpfold-token': edge.tokens.teamB,
        'x-warpfold-session': 'team-b-private',
        'x-warpfold-ceiling': '1000',
      },
      body: JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [{ role: 'user', content: `read this: ${'lorem ipsum dolor sit amet '.repeat(600)}` }],
      }),
    });
    await teamB.text();
    const linesB = await tenantLedger(edge.worker(), edge.tokens.teamB);
    const linesA = await tenantLedger(edge.worker(), edge.tokens.teamA);
    const idB = linesB.find((line) => String(line.session).includes('team-b-private'))?.session;
    expect(idB).toBeDefined();
    expect(JSON.stringify(linesA)).not.toContain('team-b-private');
    const crossRead = await fetch(`${url}/warpfold/sessions/${encodeURIComponent(idB)}`, {
      headers: { 'x-warpfold-token': edge.tokens.teamA },
    });
    expect(crossRead.status).toBe(404);
    expect(edge.logs()).not.toContain(TEST_API_KEY);
    expect(edge.logs()).not.toContain(edge.tokens.teamA);
  });
});
